/**
 * The CUDA C/C++ source front end: it computes the facts of each function once and runs the registered per-rule
 * checks of {@link dev.numlint.cuda.checks} on them (the rules it implements are those checks' rules).
 *
 * <p>Files: {@code .cu .cuh .h .hpp} are read as nvcc sees them ({@code __CUDACC__} defined), {@code .cpp .cc .cxx}
 * as host C++ and {@code .c} as C (no {@code __CUDACC__}/{@code __cplusplus}; C++ keywords are identifiers).
 * Each file's own lines are analyzed once, when the scan reaches that file; a header included from another file
 * contributes only its macros and declarations there, so a header's findings are never reported twice. A file the
 * scan does not list (.hcu, .inl, .hxx, .tpp ...) but a scanned source includes is analyzed once after the listed
 * files, with the macros its first includer had at the include. {@code -D}/{@code -I} flags of the build context
 * define macros and include directories; only regular files inside the scanned tree are ever read (symbolic links
 * resolved), other includes are reported. Locations are exact: 1-based lines and columns in UTF-16 code units
 * (SARIF's utf16CodeUnits), also after line continuations, CRLF and tabs; code from a macro is reported at the
 * invocation.
 *
 * <p>Design, in the order the data flows:
 * <ol>
 *   <li>{@link dev.numlint.cuda.FastLexer}: a hand-written lexer that produces the token types of the ANTLR lexer
 *       grammar {@code CudaLexer.g4} (the specification; a test checks both agree) several times faster.</li>
 *   <li>{@link dev.numlint.cuda.Preprocessor}: object/function-like macros of the project (with #, ## and
 *       __VA_ARGS__) are expanded, every produced token keeping the line of its invocation; #include "..." of
 *       project headers is followed (relative to the file, then -I directories from the build context) and the
 *       header's macros and declarations are cached per scan and dialect; #if/#ifdef are decided when possible, both branches
 *       are kept when the condition depends on __CUDA_ARCH__ or the toolkit version.</li>
 *   <li>{@link dev.numlint.cuda.TopLevelSplitter}: brace matching splits the file into declarations (typedefs,
 *       structs and their fields, globals, prototypes, enums) and function definitions, entering namespaces,
 *       extern "C" blocks, templates and class bodies.</li>
 *   <li>{@code CudaParser.g4}: each function body is parsed on its own with SLL prediction (full LL only if SLL
 *       fails); C++'s declaration/expression and cast ambiguities are settled by left-edge predicates backed by the
 *       known type names ({@link dev.numlint.cuda.parser.CudaParserBase}). A body that does not parse costs only
 *       that function and is reported as a WARNING notification.</li>
 *   <li>{@link dev.numlint.cuda.FunctionAnalyzer}: types bottom-up (literal suffixes, declarations, usual
 *       arithmetic conversions, CUDA vector members, the math API table in {@link dev.numlint.cuda.Builtins}),
 *       device/host context, loops with constant trip counts, range guards, compensated sums: the
 *       {@link dev.numlint.cuda.facts.FunctionFacts} of the function ({@link dev.numlint.cuda.TensorMathFacts} adds
 *       the NL012 facts from the tokens). Each site follows its value through def-use on request
 *       ({@link dev.numlint.cuda.ValueFlow}).</li>
 *   <li>{@link dev.numlint.cuda.checks}: one class per rule decides, sets the impact (level) and formats the
 *       catalog message.</li>
 * </ol>
 * Unknown types (template parameters, types from system headers) never produce findings.
 */
package dev.numlint.cuda;
