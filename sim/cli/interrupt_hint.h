// What a long command says when Ctrl-C stops it: a sweep writes its rows as
// it goes, so an interrupted one can go on where it stopped — if the user
// knows to ask. The process still ends as an interrupted one (the signal's
// default action), after the one line.
#pragma once

#include <string>

namespace locksim::cli {

// From now on, SIGINT writes |message| and a newline to standard error, then
// ends the process as SIGINT would have.
void say_on_interrupt(const std::string& message);

}  // namespace locksim::cli
