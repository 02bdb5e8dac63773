package dev.numlint.model;

/** A second place that explains a finding: the PTX instruction, the flag that enabled it, the Java launch site. */
public record RelatedLocation(Location location, String message) {}
