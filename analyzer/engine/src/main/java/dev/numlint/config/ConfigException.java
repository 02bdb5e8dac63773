package dev.numlint.config;

/** A configuration error (bad {@code .numlint.yml} or option value): the CLI reports it and exits with 2. */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
