#include "reexec/workload/workload_file.hpp"

#include <fmt/format.h>
#include <google/protobuf/util/json_util.h>
#include <xxhash.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "planner/common/error.hpp"
#include "planner/common/text.hpp"

namespace hindsight::workload {

namespace {

constexpr char kMagic[8] = {'H', 'S', 'W', 'K', 'L', 'D', '\r', '\n'};
constexpr size_t kHeaderBytes = sizeof(kMagic) + 4 + 8 + 8;
/// Larger payloads are refused before allocating (a corrupt length must not ask for terabytes).
constexpr uint64_t kMaxPayloadBytes = uint64_t{1} << 32;

template <typename T>
void put_le(std::string& out, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xff));
}
template <typename T>
T get_le(const char* p) {
  uint64_t v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return static_cast<T>(v);
}

[[noreturn]] void bad_file(const std::string& path, const std::string& why) {
  throw hindsight::Error(ErrorCode::DATA_ERROR, fmt::format("'{}' is not a usable workload file: {}", printable(path), why));
}

}  // namespace

void write_workload(const Workload& w, const std::string& path) {
  std::string payload;
  if (!w.SerializeToString(&payload))
    throw hindsight::Error(ErrorCode::INTERNAL, "the workload could not be serialized");
  std::string bytes(kMagic, sizeof(kMagic));
  put_le<uint32_t>(bytes, kWorkloadFormatVersion);
  put_le<uint64_t>(bytes, payload.size());
  put_le<uint64_t>(bytes, XXH3_64bits(payload.data(), payload.size()));
  bytes += payload;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw hindsight::Error(ErrorCode::IO_ERROR, fmt::format("cannot write workload file '{}': {}", printable(path), std::strerror(errno)));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw hindsight::Error(ErrorCode::IO_ERROR, fmt::format("cannot write workload file '{}'", printable(path)));
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw hindsight::Error(ErrorCode::IO_ERROR, fmt::format("cannot write workload file '{}': {}", printable(path), ec.message()));
  }
}

Workload read_workload(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw hindsight::Error(ErrorCode::IO_ERROR, fmt::format("cannot read workload file '{}': it is a directory", printable(path)));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw hindsight::Error(ErrorCode::IO_ERROR, fmt::format("cannot read workload file '{}': {}", printable(path), std::strerror(errno)));
  char header[kHeaderBytes];
  in.read(header, sizeof(header));
  const size_t got = static_cast<size_t>(in.gcount());
  if (got == 0) bad_file(path, "it is empty");
  if (got < sizeof(kMagic) || std::memcmp(header, kMagic, sizeof(kMagic)) != 0)
    bad_file(path, "it does not start like one (was it written by `hindsight capture`?)");
  if (got < kHeaderBytes) bad_file(path, "it is truncated (the header is cut short)");
  const uint32_t version = get_le<uint32_t>(header + 8);
  const uint64_t length = get_le<uint64_t>(header + 12);
  const uint64_t checksum = get_le<uint64_t>(header + 20);
  if (version != kWorkloadFormatVersion)
    bad_file(path, fmt::format("format version {}, this binary reads version {}", version, kWorkloadFormatVersion));
  if (length > kMaxPayloadBytes) bad_file(path, fmt::format("it claims a payload of {} bytes", length));
  std::string payload(static_cast<size_t>(length), '\0');
  in.read(payload.data(), static_cast<std::streamsize>(length));
  if (static_cast<uint64_t>(in.gcount()) != length)
    bad_file(path, fmt::format("it is truncated ({} of {} payload bytes)", in.gcount(), length));
  if (in.peek() != std::char_traits<char>::eof()) bad_file(path, "it has bytes after its payload");
  if (XXH3_64bits(payload.data(), payload.size()) != checksum) bad_file(path, "its checksum does not match (corrupt)");
  Workload w;
  if (!w.ParseFromString(payload)) bad_file(path, "its payload does not parse");
  return w;
}

std::string workload_json(const Workload& w) {
  google::protobuf::util::JsonPrintOptions opts;
  opts.add_whitespace = true;
  opts.preserve_proto_field_names = true;
  opts.always_print_primitive_fields = true;
  std::string out;
  auto status = google::protobuf::util::MessageToJsonString(w, &out, opts);
  if (!status.ok()) throw hindsight::Error(ErrorCode::INTERNAL, "the workload could not be printed as JSON: " + status.ToString());
  return out;
}

}  // namespace hindsight::workload
