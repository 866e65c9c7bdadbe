// The port bit-field helpers of verif/ports.hpp under the testbenches' namespace, so a test
// writes GetBits(...) or flint::tb::GetBits(...) as before.
#pragma once
#include "verif/ports.hpp"

namespace flint::tb {

using verif::Bits;
using verif::GetBits;
using verif::GetBytes;
using verif::GetBytesInto;
using verif::PutBits;
using verif::PutBytes;

}  // namespace flint::tb
