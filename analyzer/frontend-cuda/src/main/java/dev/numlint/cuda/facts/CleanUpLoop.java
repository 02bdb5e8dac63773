package dev.numlint.cuda.facts;

/**
 * A clean-up (remainder) loop: a loop whose counter starts at most {@code most} below its bound, because the loop
 * before it (at {@code afterLoop}) stopped there ({@code for (i = 0; i + 4 <= n; i += 4)}, then
 * {@code for (; i < n; i++)}) or its start rounds the bound down to a multiple ({@code i = n / 4 * 4},
 * {@code n & ~3}): it runs at most {@code most} times.
 *
 * @param afterLoop the line of the loop before it (the unrolled or vectorised loop), 0 when there is none
 * @param most      the most iterations it runs
 */
public record CleanUpLoop(int afterLoop, long most) {}
