// libsystemc.so needs sc_main; Catch2WithMain provides main, so this is never called.
#include <systemc>
extern "C" int sc_main(int, char*[]) { return 0; }
