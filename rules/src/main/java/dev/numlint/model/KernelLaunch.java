package dev.numlint.model;

/**
 * A kernel's launch, or another use of a kernel's name, that a front end read in the scanned tree, as a typed fact of
 * the scan ({@link dev.numlint.spi.ScanContext#addLaunches}): the front ends' reviews judge a finding of a kernel
 * by how the kernel runs (a kernel every launch of which is one thread: its cost is one thread's).
 *
 * @param file          the file of the launch, a path as the scan relativizes it
 * @param line          the line of the launch
 * @param kernel        the kernel's name as written, without qualifier or template arguments
 * @param configuration the launch's configuration as read, after preprocessing ({@code <<<1,1>>>},
 *                      {@code <<<grid,256>>>}); null for a use of the name that is not a {@code <<<>>>} launch (its
 *                      address taken, passed to {@code cudaLaunchKernel}): a launch numlint cannot read
 * @param oneThread     the grid and the block both provably hold one thread (literals, macros, {@code dim3} and
 *                      constants that are 1)
 */
public record KernelLaunch(String file, int line, String kernel, String configuration, boolean oneThread) {}
