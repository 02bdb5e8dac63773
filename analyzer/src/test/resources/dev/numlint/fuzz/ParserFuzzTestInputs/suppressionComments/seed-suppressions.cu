// Suppression comments: a justification after "--" is required.

// ruleid: NL003
int plain; /* HAZARD(NL003) */

// ok: NL003
int same_line; /* HAZARD(NL003) */ // numlint: ignore NL003 -- contraction accepted: tolerance 1e-6 in test_saxpy

// numlint: ignore NL001, NL003 -- both reviewed for issue 12
// ok: NL001, NL003
int line_above; /* HAZARD(NL001) HAZARD(NL003) */

// ruleid: NL003
int unjustified; /* HAZARD(NL003) */ // numlint: ignore NL003

// ruleid: NL003
int empty_reason; /* HAZARD(NL003) */ // numlint: ignore NL003 --

// ruleid: NL001
int other_rule; /* HAZARD(NL001) */ // numlint: ignore NL003 -- names a different rule

// numlint: ignore NL002 -- too far above

// ruleid: NL002
int two_lines_below; /* HAZARD(NL002) */
