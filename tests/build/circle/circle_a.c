/* Half of a deliberate file circle (test file-cycles-catches): a uses b, b uses a. */
int circle_b(int n);

int circle_a(int n)
{
    return n > 0 ? circle_b(n - 1) : 0;
}
