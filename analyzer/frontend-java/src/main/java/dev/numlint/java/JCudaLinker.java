package dev.numlint.java;

import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.KernelLink;
import dev.numlint.spi.ScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jdt.core.dom.*;

/**
 * JCuda host code: module loads (cuModuleLoad, cuModuleLoadData[Ex], cuModuleLoadFatBinary), function lookups
 * (cuModuleGetFunction) and launches (cuLaunchKernel), recognised with bindings when jcuda is on the classpath and
 * syntactically otherwise (method names plus a jcuda import or a JCudaDriver/JCuda qualifier). Variables are
 * tracked by name per compilation unit (locals and fields alike).
 */
final class JCudaLinker {
    private static final Set<String> LOADS = Set.of(
            "cuModuleLoad", "cuModuleLoadData", "cuModuleLoadDataEx", "cuModuleLoadFatBinary", "cuModuleLoadDataJIT");
    private static final Set<String> NAMES = Set.of(
            "cuModuleLoad",
            "cuModuleLoadData",
            "cuModuleLoadDataEx",
            "cuModuleLoadFatBinary",
            "cuModuleLoadDataJIT",
            "cuModuleGetFunction",
            "cuLaunchKernel");
    private static final String[] EXTS = {".ptx", ".cu", ".cubin", ".fatbin"};

    private final ScanContext ctx;
    private final FindingSink sink;
    private final Path file;
    private final CompilationUnit cu;
    private final String rel;
    private final boolean jcudaImported;

    private record Load(String module, List<Path> files, MethodInvocation call) {}

    private record Lookup(String function, String module, String kernel, MethodInvocation call) {}

    private final List<Load> loads = new ArrayList<>();
    private final List<Lookup> lookups = new ArrayList<>();
    private final Map<String, MethodInvocation> launches = new LinkedHashMap<>();

    JCudaLinker(ScanContext ctx, FindingSink sink, Path file, CompilationUnit cu, String source) {
        this.ctx = ctx;
        this.sink = sink;
        this.file = file;
        this.cu = cu;
        this.rel = ctx.relativize(file);
        boolean imp = false;
        for (Object o : cu.imports()) {
            if (((ImportDeclaration) o).getName().getFullyQualifiedName().startsWith("jcuda")) imp = true;
        }
        this.jcudaImported = imp;
    }

    /** Cheap test: does the unit mention JCuda at all? */
    static boolean mayLink(CompilationUnit cu, String source) {
        if (source.contains("cuModuleLoad") || source.contains("cuLaunchKernel")) return true;
        for (Object o : cu.imports()) {
            if (((ImportDeclaration) o).getName().getFullyQualifiedName().startsWith("jcuda")) return true;
        }
        PackageDeclaration p = cu.getPackage();
        return p != null && p.getName().getFullyQualifiedName().startsWith("jcuda");
    }

    private boolean isDriverCall(MethodInvocation m) {
        IMethodBinding b = m.resolveMethodBinding();
        if (b != null && b.getDeclaringClass() != null) {
            String q = b.getDeclaringClass().getQualifiedName();
            return q.equals("jcuda.driver.JCudaDriver") || q.equals("jcuda.runtime.JCuda");
        }
        Expression q = m.getExpression();
        if (q == null) return jcudaImported;
        String s = q.toString();
        return s.equals("JCudaDriver") || s.equals("JCuda") || s.endsWith(".JCudaDriver") || s.endsWith(".JCuda");
    }

    void visit(MethodInvocation m) {
        String n = m.getName().getIdentifier();
        if (!NAMES.contains(n) || !isDriverCall(m)) return;
        List<?> args = m.arguments();
        if (LOADS.contains(n)) {
            if (args.size() < 2) return;
            String module = varName((Expression) args.get(0));
            List<Path> files = resolveModule(m, (Expression) args.get(1), n.equals("cuModuleLoad"));
            loads.add(new Load(module, files, m));
        } else if (n.equals("cuModuleGetFunction")) {
            if (args.size() < 3) return;
            String kernel = constString((Expression) args.get(2), m, 0);
            if (kernel == null) {
                notice(m, "cannot resolve the kernel name " + args.get(2) + " of " + snippet(m));
            }
            lookups.add(new Lookup(varName((Expression) args.get(0)), varName((Expression) args.get(1)), kernel, m));
        } else if (n.equals("cuLaunchKernel")) {
            if (args.isEmpty()) return;
            String f = varName((Expression) args.get(0));
            if (f != null) launches.putIfAbsent(f, m);
        }
    }

    void link() {
        Set<String> linkedModules = new LinkedHashSet<>();
        for (Lookup lk : lookups) {
            List<Load> mods = new ArrayList<>();
            for (Load l : loads) if (l.module != null && l.module.equals(lk.module)) mods.add(l);
            if (mods.isEmpty() && loads.size() == 1) mods.add(loads.get(0));
            if (mods.isEmpty()) {
                notice(
                        lk.call,
                        "cannot find the cuModuleLoad* call that loads module '" + lk.module + "' used by "
                                + snippet(lk.call));
                continue;
            }
            MethodInvocation launch = lk.function == null ? null : launches.get(lk.function);
            MethodInvocation site = launch != null ? launch : lk.call;
            if (lk.kernel != null) {
                // a launch of the kernel whose configuration the CUDA front end's review does not read: the kernel
                // does not run as one thread only
                Location at = location(site);
                ctx.addLaunches(
                        List.of(new dev.numlint.model.KernelLaunch(rel, at.startLine(), lk.kernel, null, false)));
            }
            for (Load l : mods) {
                linkedModules.add(l.module);
                for (Path k : l.files) ctx.linkKernel(new KernelLink(k, lk.kernel, location(site)));
            }
        }
        for (Load l : loads) {
            if (!linkedModules.contains(l.module)) {
                for (Path k : l.files) ctx.linkKernel(new KernelLink(k, null, location(l.call)));
            }
        }
    }

    private Location location(ASTNode n) {
        return new Location(
                rel,
                cu.getLineNumber(n.getStartPosition()),
                cu.getColumnNumber(n.getStartPosition()) + 1,
                cu.getLineNumber(n.getStartPosition()),
                0);
    }

    private void notice(ASTNode n, String msg) {
        sink.notify(new Notification(
                rel, cu.getLineNumber(n.getStartPosition()), Level.NOTE, "unresolved-kernel-module", msg));
    }

    private static String snippet(ASTNode n) {
        String s = n.toString().replaceAll("\\s+", " ");
        return s.length() > 120 ? s.substring(0, 117) + "..." : s;
    }

    private static String varName(Expression e) {
        e = JavaSyntax.unparen(e);
        if (e instanceof SimpleName) return ((SimpleName) e).getIdentifier();
        if (e instanceof FieldAccess) return ((FieldAccess) e).getName().getIdentifier();
        if (e instanceof QualifiedName) return ((QualifiedName) e).getName().getIdentifier();
        return null;
    }

    // ---- resolving the module's file -----------------------------------------------------------------------

    private List<Path> resolveModule(MethodInvocation call, Expression arg, boolean isPath) {
        List<String> candidates = new ArrayList<>();
        if (isPath) {
            String s = constString(arg, call, 0);
            if (s != null) candidates.add(s);
        }
        if (candidates.isEmpty()) collectStrings(arg, call, candidates, 0);
        if (candidates.isEmpty()) {
            notice(
                    call,
                    snippet(call) + ": cannot resolve the module " + (isPath ? "path " : "data ") + arg
                            + " to a file (not a string constant, a local initialised from one, or a file/resource read)");
            return List.of();
        }
        List<String> tried = new ArrayList<>();
        for (String c : candidates) {
            Path p = resolvePath(c, tried);
            if (p != null) {
                List<Path> out = new ArrayList<>();
                out.add(p);
                String fn = p.getFileName().toString();
                if (fn.endsWith(".ptx") || fn.endsWith(".cubin") || fn.endsWith(".fatbin")) {
                    Path cuFile = p.resolveSibling(fn.substring(0, fn.lastIndexOf('.')) + ".cu");
                    if (Files.isRegularFile(cuFile))
                        out.add(cuFile.toAbsolutePath().normalize());
                } else if (fn.endsWith(".cu")) {
                    Path ptx = p.resolveSibling(fn.substring(0, fn.length() - 3) + ".ptx");
                    if (Files.isRegularFile(ptx)) out.add(ptx.toAbsolutePath().normalize());
                }
                return out;
            }
        }
        notice(
                call,
                snippet(call) + ": the module file '" + candidates.get(0) + "' was not found (looked in "
                        + String.join(", ", tried.stream().limit(6).toList()) + ")");
        return List.of();
    }

    /** String constants that look like kernel files in the expression that produces the module data. */
    private void collectStrings(Expression e, ASTNode at, List<String> out, int depth) {
        if (e == null || depth > 6) return;
        e = JavaSyntax.unparen(e);
        String s = constString(e, at, depth);
        if (s != null) {
            if (looksLikeKernel(s)) out.add(s);
            return;
        }
        if (e instanceof SimpleName) {
            for (Expression v : assignedValues((SimpleName) e)) collectStrings(v, at, out, depth + 1);
            return;
        }
        List<Expression> kids = new ArrayList<>();
        if (e instanceof MethodInvocation) {
            MethodInvocation m = (MethodInvocation) e;
            if (m.getExpression() != null) kids.add(m.getExpression());
            for (Object o : m.arguments()) kids.add((Expression) o);
        } else if (e instanceof ClassInstanceCreation) {
            for (Object o : ((ClassInstanceCreation) e).arguments()) kids.add((Expression) o);
        } else if (e instanceof CastExpression) {
            kids.add(((CastExpression) e).getExpression());
        }
        for (Expression k : kids) collectStrings(k, at, out, depth + 1);
    }

    private static boolean looksLikeKernel(String s) {
        for (String x : EXTS) if (s.endsWith(x)) return true;
        return false;
    }

    /** Values assigned to a simple name in the unit (initialisers and plain assignments). */
    private List<Expression> assignedValues(SimpleName n) {
        String id = n.getIdentifier();
        List<Expression> out = new ArrayList<>();
        VariableDeclaration d = Types.declarationOf(n);
        if (d == null) d = Types.fieldDeclaration(n, id);
        if (d != null && d.getInitializer() != null) out.add(d.getInitializer());
        ASTNode scope = d != null ? d.getParent().getParent() : cu;
        if (scope == null) scope = cu;
        scope.accept(new ASTVisitor() {
            @Override
            public boolean visit(Assignment a) {
                if (a.getOperator() == Assignment.Operator.ASSIGN && JavaSyntax.isName(a.getLeftHandSide(), id)
                        || a.getLeftHandSide() instanceof FieldAccess
                                && ((FieldAccess) a.getLeftHandSide())
                                        .getName()
                                        .getIdentifier()
                                        .equals(id)) {
                    out.add(a.getRightHandSide());
                }
                return true;
            }
        });
        return out;
    }

    /** A compile-time-ish string: literal, text block, constant, concatenation, local/field with a string initialiser. */
    private String constString(Expression e, ASTNode at, int depth) {
        if (e == null || depth > 8) return null;
        e = JavaSyntax.unparen(e);
        Object cv = e.resolveConstantExpressionValue();
        if (cv instanceof String) return (String) cv;
        if (e instanceof StringLiteral) return ((StringLiteral) e).getLiteralValue();
        if (e instanceof TextBlock) return ((TextBlock) e).getLiteralValue();
        if (e instanceof InfixExpression && ((InfixExpression) e).getOperator() == InfixExpression.Operator.PLUS) {
            InfixExpression in = (InfixExpression) e;
            StringBuilder sb = new StringBuilder();
            List<Expression> ops = new ArrayList<>();
            ops.add(in.getLeftOperand());
            ops.add(in.getRightOperand());
            for (Object o : in.extendedOperands()) ops.add((Expression) o);
            for (Expression o : ops) {
                String s = constString(o, at, depth + 1);
                if (s == null) return null;
                sb.append(s);
            }
            return sb.toString();
        }
        if (e instanceof SimpleName || e instanceof QualifiedName) {
            SimpleName n = e instanceof SimpleName ? (SimpleName) e : ((QualifiedName) e).getName();
            List<Expression> vals = assignedValues(n);
            if (vals.size() == 1) return constString(vals.get(0), at, depth + 1);
            return null;
        }
        if (e instanceof MethodInvocation) {
            MethodInvocation m = (MethodInvocation) e;
            String name = m.getName().getIdentifier();
            // Paths.get(a, b) / Path.of(a, b) / x.toString() / file.getPath()
            if ((name.equals("get") || name.equals("of"))
                    && m.getExpression() != null
                    && (m.getExpression().toString().endsWith("Paths")
                            || m.getExpression().toString().endsWith("Path"))) {
                return join(m.arguments(), at, depth);
            }
            if ((name.equals("toString") || name.equals("getPath") || name.equals("getAbsolutePath"))
                    && m.getExpression() != null) {
                return constString(m.getExpression(), at, depth + 1);
            }
            return null;
        }
        if (e instanceof ClassInstanceCreation) {
            ClassInstanceCreation c = (ClassInstanceCreation) e;
            if (c.getType().toString().endsWith("File")) return join(c.arguments(), at, depth);
        }
        return null;
    }

    private String join(List<?> args, ASTNode at, int depth) {
        StringBuilder sb = new StringBuilder();
        for (Object o : args) {
            String s = constString((Expression) o, at, depth + 1);
            if (s == null) return null;
            if (sb.length() > 0 && !sb.toString().endsWith("/")) sb.append('/');
            sb.append(s);
        }
        return sb.toString();
    }

    private Path resolvePath(String s, List<String> tried) {
        if (s.isEmpty()) return null;
        List<Path> bases = new ArrayList<>();
        Path dir = file.toAbsolutePath().getParent();
        Path project = JavaProject.projectDir(file, ctx.root());
        String rs = s.startsWith("/") ? s.substring(1) : s;
        Path abs = Path.of(s);
        if (abs.isAbsolute()) {
            tried.add(s);
            if (Files.isRegularFile(abs)) return abs.normalize();
        }
        // resources (getResourceAsStream("/kernels/x.ptx") or class-relative), then the project, the file, the root
        if (project != null) {
            bases.add(project.resolve("src/main/resources"));
            bases.add(project.resolve("src/test/resources"));
            bases.add(project);
        }
        Path pkgDir = null;
        if (cu.getPackage() != null && project != null) {
            pkgDir = project.resolve("src/main/resources")
                    .resolve(cu.getPackage().getName().getFullyQualifiedName().replace('.', '/'));
        }
        if (pkgDir != null && !s.startsWith("/")) bases.add(pkgDir);
        bases.add(dir);
        bases.add(ctx.root());
        for (Path b : bases) {
            if (b == null) continue;
            Path c = b.resolve(rs).normalize();
            tried.add(ctx.relativize(c));
            if (Files.isRegularFile(c)) return c.toAbsolutePath().normalize();
        }
        return null;
    }
}
