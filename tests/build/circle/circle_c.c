/* Uses the circle without being in it: the check must not name this file. */
int circle_a(int n);

int circle_c(void)
{
    return circle_a(3);
}
