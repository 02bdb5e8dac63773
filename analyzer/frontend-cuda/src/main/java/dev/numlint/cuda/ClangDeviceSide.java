package dev.numlint.cuda;

import dev.numlint.cuda.clang.ClangFrontEnd;
import dev.numlint.cuda.clang.ClangUnit;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A CUDA file whose device code Clang's host-side parse could not type is read as Clang's device-side compilation
 * (session 65 round C: a Monte Carlo light-transport code gives its array class {@code __host__ __device__} only
 * {@code #if defined(__CUDACC__) && defined(__CUDA_ARCH__)}, as nvcc's separate device pass sees it; Clang's host
 * pass, where {@code __CUDA_ARCH__} is not defined, found no viable {@code operator[]} in every kernel, 101 errors, and
 * its 14 float atomics were "not judged"). nvcc compiles device code with {@code __CUDA_ARCH__} defined, as Clang's
 * {@code --cuda-device-only} does: where the host-side parse has errors inside device-only functions and the
 * device-side parse has fewer errors, the device-side parse is the file's. Host code that only the host pass compiles
 * ({@code #ifndef __CUDA_ARCH__}) is then not in Clang's tree: the hand-written front end reads what Clang has no
 * definition of ({@link ClangDecides}), and the notice says which parse was used.
 */
final class ClangDeviceSide {
    private ClangDeviceSide() {}

    static final String HOST_ONLY = "--cuda-host-only";
    static final String DEVICE_ONLY = "--cuda-device-only";

    /** The device-side parse of {@code file} when it is to replace {@code host}, or null. */
    static ClangUnit reparse(ClangFrontEnd fe, Path file, List<String> args, byte[] bytes, ClangUnit host) {
        if (host == null || host.unavailable() || host.failure() != null || host.errors() == 0) return null;
        int i = args.indexOf(HOST_ONLY);
        if (i < 0 || !inDeviceCode(host)) return null;
        List<String> device = new ArrayList<>(args);
        device.set(i, DEVICE_ONLY);
        ClangUnit d = fe.parse(file, device, bytes);
        if (d == null || d.unavailable() || d.failure() != null || d.errors() >= host.errors()) return null;
        return d;
    }

    /** Whether one of the unit's errors lies in a function that is device code only (a kernel, a __device__). */
    static boolean inDeviceCode(ClangUnit u) {
        for (int line : u.errorLines()) {
            for (ClangUnit.Function f : u.functions()) {
                if (f.device() && !f.host() && f.startLine() <= line && line <= f.endLine()) return true;
            }
        }
        return false;
    }

    /** The note that says the device-side parse was used, and why. */
    static Notification notice(String rel, ClangUnit host, ClangUnit device) {
        return new Notification(
                rel,
                0,
                Level.NOTE,
                "clang-device-side",
                "analyzed as Clang's device-side compilation (" + DEVICE_ONLY + ", __CUDA_ARCH__ defined, as nvcc"
                        + " compiles device code): the host-side parse reported " + host.errors() + " error"
                        + (host.errors() == 1 ? "" : "s") + " in device code, the first " + host.firstError()
                        + "; the device side " + device.errors() + "; host code only the host side compiles is read"
                        + " by the fallback front end");
    }
}
