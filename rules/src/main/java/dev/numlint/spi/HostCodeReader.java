package dev.numlint.spi;

import java.util.List;
import java.util.ServiceLoader;

/**
 * What a front end reads from a host-code file for another stage, e.g. the kernel launches that validation runs the
 * kernels with (the CUDA front end reads them; the scan hands them on without knowing the front end). Implementations
 * are found with {@link ServiceLoader}; {@link #type()} says what they read.
 *
 * @param <T> what is read from one file
 */
public interface HostCodeReader<T> {
    /** The type of what this reader reads. */
    Class<T> type();

    /** What {@code text}, the file {@code fileName} (relative to the scan root), states; never throws for bad input. */
    List<T> read(String fileName, String text);

    /** The registered reader of {@code type}s, or null when none is registered. */
    @SuppressWarnings("unchecked")
    static <T> HostCodeReader<T> of(Class<T> type) {
        for (HostCodeReader<?> r : ServiceLoader.load(HostCodeReader.class, HostCodeReader.class.getClassLoader())) {
            if (r.type() == type) {
                return (HostCodeReader<T>) r;
            }
        }
        return null;
    }
}
