import Domain

/// Text a line is written with: a string, or UTF-8 a store's listing
/// holds where it lies (`TaskListingView`), copied without making a string.
protocol LineText {
  /// Appends the text's UTF-8 as it is.
  func append(to out: inout [UInt8])
  /// Appends it with what a terminal would act on shown instead (`CleanText.escaped`).
  func appendEscaped(to out: inout [UInt8])
}

extension String: LineText {
  func append(to out: inout [UInt8]) { out.append(string: self) }
  func appendEscaped(to out: inout [UInt8]) { out.append(string: CleanText.escaped(self)) }
}

/// UTF-8 a listing's view checked.
extension UnsafeRawBufferPointer: LineText {
  func append(to out: inout [UInt8]) { out.append(contentsOf: self) }

  func appendEscaped(to out: inout [UInt8]) {
    if CleanText.isPlain(self) { return out.append(contentsOf: self) }
    out.append(string: CleanText.escaped(String(decoding: self, as: UTF8.self)))
  }
}
