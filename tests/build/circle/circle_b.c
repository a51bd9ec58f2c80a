/* The other half of the deliberate file circle: b uses a, a uses b. */
int circle_a(int n);

int circle_b(int n)
{
    return n > 0 ? circle_a(n - 1) + 1 : 1;
}
