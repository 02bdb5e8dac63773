/** Compiling CUDA to PTX with nvcc safely (argument lists, timeouts, allow-listed flags) and with a cache. */
package dev.numlint.ptx.nvcc;
