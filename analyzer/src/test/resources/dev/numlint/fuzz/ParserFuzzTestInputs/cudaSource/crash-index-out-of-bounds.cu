#include "helpers.cuh"

// Multiply-add contraction under the default -fmad=trx;
  (f  i i >= n) return;
    // rulei(i >= n) return;
    // ruleid: NL003
    out[i] = a[i] * b[i] - out[i];
    // ok: NL003
    out[i + n] = fma(a[i], b[i], out[i]);
}
