// The device state a capture's calls set, as the converter (capture_convert) sees it: every piece
// of vertex-pipeline state is kept as the scene command that sets it to its current value, so
// that D3D8's state blocks (Create / Begin / End / Capture / Apply / DeleteStateBlock) and Reset
// become plain scene commands. Which state each D3DSBT_* type holds and the defaults a Reset
// restores are in docs/capture.md ("State blocks and Reset").
//
// Keys: "rs:N" (a render state vpsim models), "tss:S:N" (texture stage S, state 11 or 24), "ts:N"
// (a transform), "light:N", "lenable:N", "material", "viewport", "vs" (the vertex shader or FVF),
// "c:N" (a constant register), "stream:N" and "indices" (bindings: commands with the ops
// "_stream" / "_indices" that the converter keeps for itself).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::capture {

struct StateError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The scene command for render state `state` set to `dword`; nullopt when vpsim does not model the
// state. Throws StateError for a value the state cannot take (a NaN float, an unknown enumeration).
std::optional<nlohmann::json> render_state_command(uint32_t state, uint32_t dword);

class DeviceState {
public:
    using Emit = std::function<void(const nlohmann::json&)>;
    explicit DeviceState(Emit emit) : emit_(std::move(emit)) {}

    // The back buffer (the default viewport) and the device's largest point size (POINTSIZE_MAX's default).
    void set_back_buffer(uint32_t width, uint32_t height) { width_ = width, height_ = height; }
    void set_max_point_size(float f) { max_point_size_ = f; }

    // A Set* call: while a state block is being recorded (BeginStateBlock) the values go into it
    // and the device (the scene) is not changed; else they become current and `cmd` is emitted.
    // `values` holds one command per key, each setting that key alone.
    void set(const std::vector<std::pair<std::string, nlohmann::json>>& values, const nlohmann::json& cmd);
    void set(const std::string& key, const nlohmann::json& cmd) { set({{key, cmd}}, cmd); }
    // Sets the device's state (current, and `cmd` emitted) even while recording: D3D8's unbinding
    // after a user-pointer draw, and ApplyStateBlock.
    void force(const std::string& key, const nlohmann::json& cmd);
    // The value `key` has where the next set() goes (the open recording first, then the device); null when unset.
    const nlohmann::json* value(const std::string& key) const;
    bool recording() const { return recording_.has_value(); }

    void create_block(uint32_t handle, uint32_t type);
    void begin_block();
    void end_block(uint32_t handle);
    void capture_block(uint32_t handle);
    void apply_block(uint32_t handle);
    void delete_block(uint32_t handle);
    // Every piece of state back to its default; the open recording is dropped.
    void reset(uint32_t width, uint32_t height);

    // The command that sets `key` to its default; nullopt when D3D8 gives it none (a light, the shader).
    std::optional<nlohmann::json> default_of(const std::string& key) const;

private:
    struct Block {
        uint32_t type = 0;  // 0: recorded; else D3DSBT_ALL, _PIXELSTATE, _VERTEXSTATE
        std::map<std::string, nlohmann::json> values;
        std::set<std::string> lights;  // a typed block's lights ("light:N", "lenable:N"): those that existed at its creation
    };
    bool contains(const Block& b, const std::string& key) const;
    Block& block(uint32_t handle);

    Emit emit_;
    std::map<std::string, nlohmann::json> current_;  // keys set since the start or the last Reset
    std::map<uint32_t, Block> blocks_;
    std::optional<Block> recording_;
    uint32_t width_ = 0, height_ = 0;
    float max_point_size_ = 64.0f;
};

}  // namespace vpsim::capture
