// Verilator's --xml-only output, just enough of it (the top cell, its module's vars, the type
// table): the top module's ports and parameters, which model/rtl/user_rtl.cpp checks against a port
// contract before anything is compiled, and the parameters' values it records in the cache entry.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace vpsim::rtl {

// One contract port (docs/decl-decoder.md, "The cycle contract") or one port found in a design.
struct PortInfo {
    std::string name;
    std::string dir;   // "input" / "output" / "inout"
    int width = 0;     // 0 = not a plain packed vector (struct, array, ...)
    std::string where; // file:line of the declaration (found ports)
};

// The top module's ports and parameters from Verilator's --xml-only output (the XML text).
struct XmlTop {
    std::string top;
    std::vector<PortInfo> ports;
    std::vector<std::string> params;
};
// Throws std::runtime_error when the XML names no top module or lacks its module.
XmlTop parse_verilator_xml(const std::string& xml);

// The top module's parameters with their values as Verilator elaborated them (the sized literal of
// each `<var param="true">`, 32'h64 -> "100"), by name; a value it cannot read is left out.
std::map<std::string, std::string> verilator_param_values(const std::string& xml, const std::string& top);

}  // namespace vpsim::rtl
