package dev.numlint.cuda;

import java.nio.file.Path;

/** compile_commands.json text for tests: one {@code cc FLAGS -c FILE} entry per file of {@code dir}. */
final class CompileDatabases {
    private CompileDatabases() {}

    static String of(Path dir, String flags, String... files) {
        StringBuilder b = new StringBuilder("[");
        for (String f : files) {
            if (b.length() > 1) b.append(",\n");
            b.append("{\"directory\": \"")
                    .append(dir)
                    .append("\", \"file\": \"")
                    .append(dir.resolve(f))
                    .append("\", \"command\": \"cc ")
                    .append(flags)
                    .append(" -c ")
                    .append(dir.resolve(f))
                    .append("\"}");
        }
        return b.append("]").toString();
    }
}
