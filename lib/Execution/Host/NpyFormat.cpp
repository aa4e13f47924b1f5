//===- NpyFormat.cpp - The .npy file format, without LLVM -----------------===//
//
// The header is read by a small parser of the Python dict literal numpy
// writes ({'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }), so a
// header that is not a dict, repeats a key or carries an unknown one is
// refused instead of being searched for the first match of each key. Plain
// C++ (HostIO.h): relax-run's driver links this without LLVM.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/HostIO.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace mlir::relax::exec;

/// The numpy descr of a dtype (little endian). numpy has no bfloat16: bf16
/// travels as its uint16 bit pattern, as ONNX's numpy_helper writes it, so
/// a '<u2' file reads as ui16 and the execution library takes it as bf16 where
/// the program has a bf16 (see adoptDType in HostTensor.h).
static const char *npyDescr(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "<f2";
  case DType::BF16:
  case DType::U16:
    return "<u2";
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::Bool:
    return "|b1";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::U8:
    return "|u1";
  case DType::U32:
    return "<u4";
  case DType::U64:
    return "<u8";
  }
  return "?";
}

namespace {
using Text = std::string_view;

constexpr const char *kSpace = " \t\r\n";

Text ltrim(Text s, const char *chars = kSpace) {
  size_t start = s.find_first_not_of(chars);
  return start == Text::npos ? Text() : s.substr(start);
}
Text rtrim(Text s, const char *chars = kSpace) {
  size_t end = s.find_last_not_of(chars);
  return end == Text::npos ? Text() : s.substr(0, end + 1);
}
Text trim(Text s, const char *chars = kSpace) {
  return rtrim(ltrim(s, chars), chars);
}
bool consumeFront(Text &s, Text prefix) {
  if (s.substr(0, prefix.size()) != prefix)
    return false;
  s.remove_prefix(prefix.size());
  return true;
}
bool consumeBack(Text &s, Text suffix) {
  if (s.size() < suffix.size() ||
      s.substr(s.size() - suffix.size()) != suffix)
    return false;
  s.remove_suffix(suffix.size());
  return true;
}
/// A non-negative decimal integer that fits int64_t, and nothing else.
std::optional<int64_t> parseDim(Text s) {
  if (s.empty() || s.size() > 19)
    return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9' ||
        __builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, c - '0', &v))
      return std::nullopt;
  }
  return v;
}

/// The three entries of a .npy header, as text still to be interpreted.
struct HeaderFields {
  std::optional<Text> descr, fortranOrder, shape;
};

/// Reads the header dict: `{` then `'key': value` pairs separated by commas
/// (a trailing comma allowed) then `}`. Values are quoted strings, tuples or
/// bare words (True, False); they are returned as text.
class HeaderParser {
public:
  HeaderParser(Text text, Text name, std::string &error)
      : rest(text), name(name), error(error) {}

  std::optional<HeaderFields> parse() {
    HeaderFields fields;
    rest = trim(rest);
    if (!consumeFront(rest, "{") || !consumeBack(rest, "}"))
      return fail("the header is not a Python dict literal");
    while (true) {
      rest = ltrim(rest);
      if (rest.empty())
        break;
      std::optional<Text> key = quoted();
      if (!key)
        return fail("malformed header key");
      rest = ltrim(rest);
      if (!consumeFront(rest, ":"))
        return fail("malformed header: expected ':' after '" +
                    std::string(*key) + "'");
      rest = ltrim(rest);
      Text value = takeValue();
      std::optional<Text> *slot = nullptr;
      if (*key == "descr")
        slot = &fields.descr;
      else if (*key == "fortran_order")
        slot = &fields.fortranOrder;
      else if (*key == "shape")
        slot = &fields.shape;
      else
        return fail("unexpected header key '" + std::string(*key) + "'");
      if (*slot)
        return fail("the header has the key '" + std::string(*key) +
                    "' twice");
      *slot = value;
      rest = ltrim(rest);
      if (rest.empty())
        break;
      if (!consumeFront(rest, ","))
        return fail("malformed header: expected ',' after the value of '" +
                    std::string(*key) + "'");
    }
    return fields;
  }

private:
  std::nullopt_t fail(const std::string &what) {
    error = std::string(name) + ": not a valid .npy file: " + what;
    return std::nullopt;
  }

  /// A '...' or "..." literal (numpy writes no escapes in headers).
  std::optional<Text> quoted() {
    if (rest.empty() || (rest[0] != '\'' && rest[0] != '"'))
      return std::nullopt;
    char quote = rest[0];
    size_t end = rest.find(quote, 1);
    if (end == Text::npos)
      return std::nullopt;
    Text text = rest.substr(1, end - 1);
    rest.remove_prefix(end + 1);
    return text;
  }

  /// The text of one value: a quoted string with its quotes, a parenthesised
  /// tuple with its parentheses, or a bare word up to the next comma.
  Text takeValue() {
    size_t end;
    if (!rest.empty() && (rest[0] == '\'' || rest[0] == '"')) {
      end = rest.find(rest[0], 1);
      end = end == Text::npos ? rest.size() : end + 1;
    } else if (!rest.empty() && rest[0] == '(') {
      end = rest.find(')');
      end = end == Text::npos ? rest.size() : end + 1;
    } else {
      end = rest.find(',');
      if (end == Text::npos)
        end = rest.size();
    }
    Text value = rtrim(rest.substr(0, end));
    rest.remove_prefix(end);
    return value;
  }

  Text rest;
  Text name;
  std::string &error;
};
} // namespace

namespace {
/// The longest header accepted. numpy's own reader stops at 10,000 bytes
/// (np.load's max_header_size); a longer one is a corrupt length field, not
/// a dict worth reading.
constexpr size_t kMaxNpyHeader = 1 << 20;

/// What the header of a .npy file says: the tensor without its data, where
/// the data starts and how many bytes it has.
struct NpyHeader {
  HostTensor tensor;
  size_t dataStart = 0;
  size_t dataBytes = 0;
};

/// The length of the fixed prefix (magic, version, header length) of a file
/// starting with `bytes` (at least 8 of them), or 0 after setting `error`.
size_t npyPrefixLength(std::string_view bytes, std::string_view name,
                       std::string &error) {
  if (bytes.size() < 8 || bytes.substr(0, 6) != "\x93NUMPY") {
    error = std::string(name) + ": not a valid .npy file: missing the "
                                "\\x93NUMPY magic";
    return 0;
  }
  uint8_t major = bytes[6];
  if (major == 1)
    return 10;
  if (major == 2 || major == 3)
    return 12;
  error = std::string(name) +
          ": not a valid .npy file: unsupported format version " +
          std::to_string(static_cast<unsigned>(major));
  return 0;
}

/// The header dict's length, little endian in the prefix's bytes from 8 up
/// to `prefix` (those of them that `bytes` holds).
size_t npyHeaderLength(std::string_view bytes, size_t prefix) {
  size_t length = 0;
  for (size_t i = 8; i < std::min(prefix, bytes.size()); ++i)
    length |= static_cast<size_t>(static_cast<uint8_t>(bytes[i]))
              << (8 * (i - 8));
  return length;
}

/// Parses the prefix and header dict of `bytes`; the data need not follow.
std::optional<NpyHeader> parseNpyHeader(std::string_view bytes,
                                        std::string_view name,
                                        std::string &error) {
  auto fail = [&](const std::string &what) -> std::optional<NpyHeader> {
    error = std::string(name) + ": not a valid .npy file: " + what;
    return std::nullopt;
  };
  size_t headerStart = npyPrefixLength(bytes, name, error);
  if (headerStart == 0)
    return std::nullopt;
  if (bytes.size() < headerStart)
    return fail("truncated header");
  size_t headerLen = npyHeaderLength(bytes, headerStart);
  if (headerLen > kMaxNpyHeader)
    return fail("header of " + std::to_string(headerLen) +
                " bytes (more than " + std::to_string(kMaxNpyHeader) + ")");
  if (bytes.size() < headerStart + headerLen)
    return fail("truncated header");
  Text header = bytes.substr(headerStart, headerLen);

  std::optional<HeaderFields> fields =
      HeaderParser(header, name, error).parse();
  if (!fields)
    return std::nullopt;
  if (!fields->descr || !fields->fortranOrder || !fields->shape)
    return fail("header lacks descr, fortran_order or shape");
  if (*fields->fortranOrder == "True")
    return fail("Fortran-ordered arrays are not supported");
  if (*fields->fortranOrder != "False")
    return fail("malformed fortran_order '" +
                std::string(*fields->fortranOrder) + "'");

  Text d = *fields->descr;
  if (d.size() < 2 || (d.front() != '\'' && d.front() != '"') ||
      d.back() != d.front())
    return fail("malformed descr");
  d = d.substr(1, d.size() - 2);
  NpyHeader result;
  HostTensor &tensor = result.tensor;
  static const DType all[] = {DType::F16, DType::F32, DType::F64, DType::Bool,
                              DType::I8,  DType::I16, DType::I32, DType::I64,
                              DType::U8,  DType::U16, DType::U32, DType::U64};
  bool found = false;
  for (DType dtype : all)
    if (d == npyDescr(dtype)) {
      tensor.dtype = dtype;
      found = true;
    }
  if (!found)
    return fail("unsupported dtype '" + std::string(d) + "'");

  Text s = *fields->shape;
  if (!consumeFront(s, "(") || !consumeBack(s, ")"))
    return fail("malformed shape");
  std::vector<Text> parts;
  for (size_t start = 0;;) {
    size_t comma = s.find(',', start);
    parts.push_back(s.substr(start, comma == Text::npos ? Text::npos
                                                        : comma - start));
    if (comma == Text::npos)
      break;
    start = comma + 1;
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    Text part = trim(parts[i], " \t\n\v\f\r");
    // Only the last entry may be empty: "(3,)" and "()".
    if (part.empty() && i + 1 == parts.size())
      continue;
    std::optional<int64_t> dim = parseDim(part);
    if (!dim)
      return fail("malformed shape entry '" + std::string(part) + "'");
    tensor.shape.push_back(*dim);
  }
  // Guard the size computation against absurd shapes in corrupt headers.
  std::optional<int64_t> count = checkedElementCount(tensor.shape);
  if (!count)
    return fail("shape too large");
  result.dataBytes = static_cast<size_t>(*count) * dtypeSize(tensor.dtype);
  result.dataStart = headerStart + headerLen;
  return result;
}

/// The tensor `header` describes, its data taken from `bytes` (the whole
/// file), or nothing when the data is short.
std::optional<HostTensor> withData(NpyHeader header, std::string_view bytes,
                                   std::string_view name, std::string &error) {
  size_t available = bytes.size() - header.dataStart;
  if (available < header.dataBytes) {
    error = std::string(name) + ": not a valid .npy file: expected " +
            std::to_string(header.dataBytes) + " data bytes, found " +
            std::to_string(available);
    return std::nullopt;
  }
  header.tensor.data.assign(bytes.begin() + header.dataStart,
                            bytes.begin() + header.dataStart +
                                header.dataBytes);
  return std::move(header.tensor);
}
} // namespace

std::optional<HostTensor>
mlir::relax::exec::parseNpyBytes(std::string_view bytes, std::string_view name,
                                 std::string &error) {
  std::optional<NpyHeader> header = parseNpyHeader(bytes, name, error);
  if (!header)
    return std::nullopt;
  return withData(std::move(*header), bytes, name, error);
}

std::optional<HostTensor> mlir::relax::exec::readNpyFile(const std::string &path,
                                                         std::string &error) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  // Read the prefix, then the header, then exactly the data the header
  // declares: a stream that is not a .npy file (/dev/zero, a pipe) is refused
  // after its first bytes instead of being read to its end, which may never
  // come.
  std::string bytes;
  auto readUpTo = [&](size_t size) {
    char chunk[1 << 16];
    while (bytes.size() < size) {
      size_t want = std::min(sizeof(chunk), size - bytes.size());
      size_t n = std::fread(chunk, 1, want, f);
      if (n == 0)
        return;
      bytes.append(chunk, n);
    }
  };
  // Closes the file; a read error replaces any message set before.
  auto finish = [&]() -> bool {
    bool failed = std::ferror(f);
    int err = errno;
    std::fclose(f);
    if (failed)
      error = path + ": " + std::strerror(err);
    return !failed;
  };
  readUpTo(8);
  size_t prefix = npyPrefixLength(bytes, path, error);
  if (prefix == 0) {
    finish();
    return std::nullopt;
  }
  readUpTo(prefix);
  readUpTo(prefix + std::min(npyHeaderLength(bytes, prefix), kMaxNpyHeader));
  std::optional<NpyHeader> header = parseNpyHeader(bytes, path, error);
  if (!header) {
    finish();
    return std::nullopt;
  }
  readUpTo(header->dataStart + header->dataBytes);
  if (!finish())
    return std::nullopt;
  return withData(std::move(*header), bytes, path, error);
}

std::string mlir::relax::exec::encodeNpy(const HostTensor &tensor) {
  std::string shape = "(";
  for (int64_t d : tensor.shape)
    shape += std::to_string(d) + ",";
  if (tensor.shape.size() > 1)
    shape.pop_back();
  shape += ")";
  std::string header = "{'descr': '" + std::string(npyDescr(tensor.dtype)) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Version 1.0 has a 16-bit header length; longer headers need 2.0. The
  // data starts at a multiple of 64 bytes either way.
  size_t prefix = header.size() + 11 > 0xffff ? 12 : 10;
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string bytes = "\x93NUMPY";
  bytes += char(prefix == 10 ? 1 : 2);
  bytes += char(0);
  for (size_t i = 0; i < prefix - 8; ++i)
    bytes += char((header.size() >> (8 * i)) & 0xff);
  bytes += header;
  bytes.append(reinterpret_cast<const char *>(tensor.data.data()),
               tensor.data.size());
  return bytes;
}

bool mlir::relax::exec::writeNpyFile(const std::string &path,
                                     const HostTensor &tensor,
                                     std::string &error) {
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    error = path + ": " + std::strerror(errno);
    return false;
  }
  std::string bytes = encodeNpy(tensor);
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  int err = errno;
  ok = std::fclose(f) == 0 && ok;
  if (!ok)
    error = path + ": " + std::strerror(err ? err : errno);
  return ok;
}
