package dev.numlint.model;

/**
 * Why a finding is suppressed. {@code kind} is "inSource" (a numlint comment or annotation) or "external"
 * (configuration). A suppression without justification is itself reported by the scan.
 */
public record Suppression(String kind, String justification, Location location) {}
