package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The functions of a {@link ClangUnit} ({@link ClangUnit#functions()}): each definition with its name (its classes and
 * namespace), its lines and where it runs (its CUDA attributes, or the words of a template's head), and the type
 * arguments of its instantiations. A definition without an execution space takes the one an earlier declaration of the
 * same function gives (nvcc's rule; Clang reports "__host__ function cannot overload __host__ __device__ function" and
 * keeps the definition a host function).
 */
final class ClangFunctions {
    private ClangFunctions() {}

    static List<ClangUnit.Function> of(
            ClangUnit unit, List<ClangNode> top, Map<String, List<List<String>>> templateArgs, byte[] text) {
        List<ClangUnit.Function> out = new ArrayList<>();
        List<ClangNode> declarations = declarations(top);
        Map<String, boolean[]> declared = declaredSpaces(declarations);
        for (ClangNode n : declarations) {
            ClangNode body = null;
            boolean device = false;
            boolean global = false;
            boolean host = false;
            for (ClangNode c : n.children) {
                // a function-try-block (f() try { ... } catch (...) { ... }) has the try statement for its body
                if (c.kind == CXCursor_CompoundStmt || c.kind == CXCursor_CXXTryStmt) body = c;
                else if (c.kind == CXCursor_CUDADeviceAttr) device = true;
                else if (c.kind == CXCursor_CUDAGlobalAttr) global = true;
                else if (c.kind == CXCursor_CUDAHostAttr) host = true;
            }
            if (body == null) continue;
            if (!device && !global && !host && n.offset >= 0 && body.offset > n.offset && body.offset <= text.length) {
                // a template's attributes are not among its cursor's children: the words of its head
                String head = new String(text, n.offset, body.offset - n.offset, StandardCharsets.UTF_8);
                global = head.matches("(?s).*\\b__global__\\b.*");
                device = head.matches("(?s).*\\b__device__\\b.*");
                host = head.matches("(?s).*\\b__host__\\b.*");
            }
            if (!device && !global && !host && n.declaredSpaces != 0) {
                // an out-of-line definition of a member its class declares __host__ __device__ (ClangSpaces)
                device = (n.declaredSpaces & ClangSpaces.DEVICE) != 0;
                host = (n.declaredSpaces & ClangSpaces.HOST) != 0;
                global = (n.declaredSpaces & ClangSpaces.GLOBAL) != 0;
            }
            if (!device && !global && !host) {
                // a definition without an execution space after a declaration with one (SIXTRL_FN = __host__
                // __device__ on the prototype, 'inline float f(float x) { ... }' below): nvcc gives the definition the
                // declaration's, where Clang reports "cannot overload" and keeps it a host function
                boolean[] d = declared.get(key(n));
                if (d != null) {
                    device = d[0];
                    host = d[1];
                }
            }
            String name = n.spelling;
            ClangNode p = n.parent;
            while (p != null) {
                if (p.kind == CXCursor_StructDecl || p.kind == CXCursor_ClassDecl || p.kind == CXCursor_ClassTemplate) {
                    name = p.spelling + "::" + name;
                }
                p = p.parent;
            }
            if (n.ref != null && !n.ref.isEmpty() && !name.contains("::")) name = n.ref + "::" + name;
            out.add(function(name, n, device || global, host, ClangTemplates.base(n, templateArgs)));
        }
        return ClangTemplates.deduce(List.copyOf(out), unit);
    }

    /** The function {@code n} named {@code name}, run on the device ({@code dev}) and/or on the host. */
    static ClangUnit.Function function(
            String name, ClangNode n, boolean dev, boolean host, List<List<String>> instantiations) {
        return new ClangUnit.Function(
                name,
                n.line,
                n.line,
                n.endLine,
                n.kind == CXCursor_FunctionTemplate,
                dev,
                host || !dev,
                n,
                instantiations);
    }

    /**
     * The execution spaces ({@code {device, host}}) that declarations without a body give their functions, by {@link
     * #key}: only declarations that name one ({@code __device__}, {@code __host__ __device__}).
     */
    private static Map<String, boolean[]> declaredSpaces(List<ClangNode> declarations) {
        Map<String, boolean[]> out = new HashMap<>();
        for (ClangNode n : declarations) {
            if (n.kind != CXCursor_FunctionDecl) continue;
            boolean device = false, host = false, body = false;
            for (ClangNode c : n.children) {
                if (c.kind == CXCursor_CompoundStmt || c.kind == CXCursor_CXXTryStmt) body = true;
                else if (c.kind == CXCursor_CUDADeviceAttr) device = true;
                else if (c.kind == CXCursor_CUDAHostAttr) host = true;
            }
            if (!body && device) out.putIfAbsent(key(n), new boolean[] {true, host});
        }
        return out;
    }

    /** The function-like declarations of the unit, in namespaces, classes and extern "C" blocks too, in order. */
    static List<ClangNode> declarations(List<ClangNode> top) {
        List<ClangNode> out = new ArrayList<>();
        java.util.ArrayDeque<ClangNode> todo = new java.util.ArrayDeque<>(top);
        while (!todo.isEmpty()) {
            ClangNode n = todo.poll();
            if (ClangUnit.CONTAINER_KINDS.contains(n.kind)) todo.addAll(n.children);
            else if (ClangUnit.FUNCTION_KINDS.contains(n.kind)) out.add(n);
        }
        return out;
    }

    /** A function by its name and its number of parameters (overloads of other arities stay apart). */
    private static String key(ClangNode n) {
        int params = 0;
        for (ClangNode c : n.children) if (c.kind == CXCursor_ParmDecl) params++;
        return n.spelling + "/" + params;
    }
}
