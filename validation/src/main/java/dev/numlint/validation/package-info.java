/** Validation: runs flagged kernels from their PTX on a CPU interpreter and on a GPU (JCuda), and measures the divergence. */
package dev.numlint.validation;
