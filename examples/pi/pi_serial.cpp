// The serial pi program: one float accumulator over num_steps terms, and double literals in a float program.
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv)
{
    long num_steps = argc > 1 ? atol(argv[1]) : 100000;
    float step = 1.0 / (float) num_steps;
    float sum = 0.0f;
    for (long i = 1; i <= num_steps; i++) {
        float x = (i - 0.5) * step;
        sum = sum + 4.0 / (1.0 + x * x);
    }
    printf("steps %ld  CPU pi %.8f\n", num_steps, step * sum);
    return 0;
}
