// The exit status of a command's work by what it threw, the same in every command that runs
// scenes: 0 done, 1 a malformed or refused scene (SceneError), 2 bad input or I/O (ParamError,
// any other std::exception), 3 an internal error (std::logic_error: a broken invariant). The
// message goes to stderr after the command's name.
#pragma once

#include "model/common/params.h"
#include "model/scene/scene.h"

#include <cstdio>
#include <exception>
#include <stdexcept>

namespace vpsim::cli {

template <class F>
int exit_status_of(const char* me, F&& f) {
    try {
        f();
        return 0;
    } catch (const ParamError& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 2;
    } catch (const scene::SceneError& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 1;
    } catch (const std::logic_error& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 2;
    }
}

}  // namespace vpsim::cli
