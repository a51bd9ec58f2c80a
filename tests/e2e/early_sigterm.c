/* Preloaded by robust_signals.sh: sends the process a SIGTERM from a library initialiser,
 * the time a farm's signal can come while the dynamic loader starts mlvpipe (before main). */
#include <signal.h>
#include <unistd.h>

__attribute__((constructor)) static void sigterm_while_loading(void)
{
    kill(getpid(), SIGTERM);
}
