package dev.numlint.cuda;

import java.util.Map;

/** Macros and declarations of a project header ({@link ProjectHeaders}), cached per scan. */
record HeaderInfo(Map<String, Preprocessor.Macro> macros, FileScope scope) {}
