// A scene's buffers (docs/scenes.md, "buffers"): binary files, inline vertices or indices, raw
// bytes (a JSON array or base64) and the built-in generators (generators.h), read into Scene::buffers.
#pragma once

#include "model/scene/scene_json.h"

namespace vpsim::scene::parse {

class BufferReader : public JsonReader {
public:
    using JsonReader::JsonReader;

    // The buffer `name` (its JSON value j at pointer ptr) into Scene::buffers.
    void buffer(const std::string& name, const json& j, const std::string& ptr);

private:
    // Buffer b read from its source at ptr (`what`: "N bytes" ...) holds the "size" of j, if any,
    // and whole indices.
    void whole(const json& j, const Buffer& b, const std::string& ptr, const std::string& what) const;
    void add_buffer(const std::string& name, Buffer b, const std::string& ptr);
    uint32_t data_type(const json& j, const std::string& ptr) const;
    void inline_vertices(Buffer& b, const json& j, const std::string& ptr);
    void generator(const std::string& name, const json& j, const std::string& ptr);
};

}  // namespace vpsim::scene::parse
