/**
 * The one CUDA toolchain of numlint, shared by the scan and validation: {@link dev.numlint.toolchain.Nvcc} locates
 * nvcc (one search order) and asks it about itself, {@link dev.numlint.toolchain.GuardedProcess} is the only way a
 * child process is started (argument lists, reduced environment, private directory, limits on the whole tree),
 * {@link dev.numlint.toolchain.NvccFlagPolicy} is the allow-list of flags, {@link dev.numlint.toolchain.IncludeGraph}
 * checks a file's includes before it is compiled, {@link dev.numlint.toolchain.PtxCache} holds derived PTX and
 * temporary files, and {@link dev.numlint.toolchain.PtxCompiler} ties them together. The trust model is in
 * docs/security/threat-model.md.
 */
package dev.numlint.toolchain;
