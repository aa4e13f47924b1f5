//===- Npy.cpp - The .npy file format -------------------------------------===//
//
// The header is read by a small parser of the Python dict literal numpy
// writes ({'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }), so a
// header that is not a dict, repeats a key or carries an unknown one is
// refused instead of being searched for the first match of each key.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/Npy.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

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

static llvm::Error npyError(llvm::StringRef name, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 name + ": not a valid .npy file: " + what);
}

namespace {
/// The three entries of a .npy header, as text still to be interpreted.
struct HeaderFields {
  std::optional<llvm::StringRef> descr, fortranOrder, shape;
};

/// Reads the header dict: `{` then `'key': value` pairs separated by commas
/// (a trailing comma allowed) then `}`. Values are quoted strings, tuples or
/// bare words (True, False); they are returned as text.
class HeaderParser {
public:
  HeaderParser(llvm::StringRef text, llvm::StringRef name)
      : rest(text), name(name) {}

  llvm::Expected<HeaderFields> parse() {
    HeaderFields fields;
    rest = rest.trim(" \t\r\n");
    if (!rest.consume_front("{") || !rest.consume_back("}"))
      return npyError(name, "the header is not a Python dict literal");
    while (true) {
      rest = rest.ltrim(" \t\r\n");
      if (rest.empty())
        break;
      std::optional<llvm::StringRef> key = quoted();
      if (!key)
        return npyError(name, "malformed header key");
      rest = rest.ltrim(" \t\r\n");
      if (!rest.consume_front(":"))
        return npyError(name,
                        "malformed header: expected ':' after '" + *key + "'");
      rest = rest.ltrim(" \t\r\n");
      llvm::StringRef value = takeValue();
      std::optional<llvm::StringRef> *slot = nullptr;
      if (*key == "descr")
        slot = &fields.descr;
      else if (*key == "fortran_order")
        slot = &fields.fortranOrder;
      else if (*key == "shape")
        slot = &fields.shape;
      else
        return npyError(name, "unexpected header key '" + *key + "'");
      if (*slot)
        return npyError(name, "the header has the key '" + *key + "' twice");
      *slot = value;
      rest = rest.ltrim(" \t\r\n");
      if (rest.empty())
        break;
      if (!rest.consume_front(","))
        return npyError(name, "malformed header: expected ',' after the "
                              "value of '" +
                                  *key + "'");
    }
    return fields;
  }

private:
  /// A '...' or "..." literal (numpy writes no escapes in headers).
  std::optional<llvm::StringRef> quoted() {
    if (rest.empty() || (rest[0] != '\'' && rest[0] != '"'))
      return std::nullopt;
    char quote = rest[0];
    size_t end = rest.find(quote, 1);
    if (end == llvm::StringRef::npos)
      return std::nullopt;
    llvm::StringRef text = rest.slice(1, end);
    rest = rest.drop_front(end + 1);
    return text;
  }

  /// The text of one value: a quoted string with its quotes, a parenthesised
  /// tuple with its parentheses, or a bare word up to the next comma.
  llvm::StringRef takeValue() {
    size_t end;
    if (!rest.empty() && (rest[0] == '\'' || rest[0] == '"')) {
      end = rest.find(rest[0], 1);
      end = end == llvm::StringRef::npos ? rest.size() : end + 1;
    } else if (!rest.empty() && rest[0] == '(') {
      end = rest.find(')');
      end = end == llvm::StringRef::npos ? rest.size() : end + 1;
    } else {
      end = rest.find(',');
      if (end == llvm::StringRef::npos)
        end = rest.size();
    }
    llvm::StringRef value = rest.take_front(end).rtrim(" \t\r\n");
    rest = rest.drop_front(end);
    return value;
  }

  llvm::StringRef rest;
  llvm::StringRef name;
};
} // namespace

llvm::Expected<HostTensor> mlir::relax::exec::parseNpy(llvm::StringRef bytes,
                                                       llvm::StringRef name) {
  if (bytes.size() < 10 || !bytes.starts_with("\x93NUMPY"))
    return npyError(name, "missing the \\x93NUMPY magic");
  uint8_t major = bytes[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen =
        static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return npyError(name, "truncated header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i]))
                   << (8 * i);
    headerStart = 12;
  } else {
    return npyError(name, "unsupported format version " +
                              llvm::Twine(static_cast<unsigned>(major)));
  }
  if (bytes.size() < headerStart + headerLen)
    return npyError(name, "truncated header");
  llvm::StringRef header = bytes.substr(headerStart, headerLen);

  llvm::Expected<HeaderFields> fields = HeaderParser(header, name).parse();
  if (!fields)
    return fields.takeError();
  if (!fields->descr || !fields->fortranOrder || !fields->shape)
    return npyError(name, "header lacks descr, fortran_order or shape");
  if (*fields->fortranOrder == "True")
    return npyError(name, "Fortran-ordered arrays are not supported");
  if (*fields->fortranOrder != "False")
    return npyError(name,
                    "malformed fortran_order '" + *fields->fortranOrder + "'");

  llvm::StringRef d = *fields->descr;
  if (d.size() < 2 || (d.front() != '\'' && d.front() != '"') ||
      d.back() != d.front())
    return npyError(name, "malformed descr");
  d = d.drop_front().drop_back();
  HostTensor tensor;
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
    return npyError(name, "unsupported dtype '" + d + "'");

  llvm::StringRef s = *fields->shape;
  if (!s.consume_front("(") || !s.consume_back(")"))
    return npyError(name, "malformed shape");
  llvm::SmallVector<llvm::StringRef> parts;
  s.split(parts, ',');
  for (auto [i, part] : llvm::enumerate(parts)) {
    part = part.trim();
    // Only the last entry may be empty: "(3,)" and "()".
    if (part.empty() && i + 1 == parts.size())
      continue;
    int64_t dim;
    if (part.getAsInteger(10, dim) || dim < 0)
      return npyError(name, "malformed shape entry '" + part + "'");
    tensor.shape.push_back(dim);
  }
  // Guard the size computation against absurd shapes in corrupt headers.
  std::optional<int64_t> count = checkedElementCount(tensor.shape);
  if (!count)
    return npyError(name, "shape too large");
  size_t dataBytes = static_cast<size_t>(*count) * dtypeSize(tensor.dtype);
  size_t dataStart = headerStart + headerLen;
  if (bytes.size() - dataStart < dataBytes)
    return npyError(name, "expected " + llvm::Twine(dataBytes) +
                              " data bytes, found " +
                              llvm::Twine(bytes.size() - dataStart));
  tensor.data.assign(bytes.begin() + dataStart,
                     bytes.begin() + dataStart + dataBytes);
  return tensor;
}

llvm::Expected<HostTensor> mlir::relax::exec::readNpy(llvm::StringRef path) {
  auto bufferOr = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!bufferOr)
    return llvm::createStringError(bufferOr.getError(),
                                   path + ": " + bufferOr.getError().message());
  return parseNpy((*bufferOr)->getBuffer(), path);
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

llvm::Error mlir::relax::exec::writeNpy(llvm::StringRef path,
                                        const HostTensor &tensor) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError(ec, path + ": " + ec.message());
  os << encodeNpy(tensor);
  os.close();
  if (os.has_error()) {
    std::error_code err = os.error();
    os.clear_error();
    return llvm::createStringError(err, path + ": " + err.message());
  }
  return llvm::Error::success();
}
