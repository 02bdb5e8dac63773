package dev.numlint.spi;

import dev.numlint.model.Location;
import java.nio.file.Path;

/**
 * A kernel launched from host code (JCuda): the kernel file (PTX or CUDA, absolute), the kernel name (may be
 * null when unresolved) and the launch site. The scan analyzes linked files even when they were not named on the
 * command line and attaches the launch site to their findings as a related location.
 */
public record KernelLink(Path kernelFile, String kernelName, Location launchSite) {}
