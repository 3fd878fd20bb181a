#include "loadoutcome.h"

namespace tty {

const char *loadOutcomeName(LoadOutcome o)
{
    switch (o) {
    case LoadOutcome::Complete:
        return "complete";
    case LoadOutcome::Truncated:
        return "truncated";
    case LoadOutcome::Damaged:
        return "damaged";
    case LoadOutcome::Cancelled:
        return "cancelled";
    case LoadOutcome::Unreadable:
        return "unreadable";
    }
    return "?";
}

int exitStatus(LoadOutcome worst)
{
    switch (worst) {
    case LoadOutcome::Complete:
        return 0;
    case LoadOutcome::Truncated:
    case LoadOutcome::Damaged:
    case LoadOutcome::Cancelled:
        return 3;
    case LoadOutcome::Unreadable:
        return 1;
    }
    return 1;
}

} // namespace tty
