package dev.numlint.cuda;

import java.util.Map;

/**
 * Macros and declarations of a project header ({@link ProjectHeaders}), cached per scan, and the files its reading
 * read (the header and every project header it includes, real paths): a file's analysis cache entry is keyed by
 * their contents ({@link SourceCache}).
 */
record HeaderInfo(Map<String, Preprocessor.Macro> macros, FileScope scope, java.util.Set<java.nio.file.Path> reads) {}
