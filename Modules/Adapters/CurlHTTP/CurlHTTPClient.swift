import CCurl
import Foundation
import Gateway

/// `HTTPSending` over libcurl, loaded at the first request (a command that
/// sends none never maps it). Redirects are answered, not followed: a
/// request carries a person's data only to the address they configured.
public struct CurlHTTPClient: HTTPSending {
  public init() {}

  /// libcurl's global setup, once, before any thread's first request
  /// (`curl_easy_init` would otherwise do it, racing other threads').
  private static let started: CURLcode = wh_curl_start()

  public func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
    if let refusal = HTTPClientError.refusal(of: url, headers: headers) { throw refusal }
    _ = Self.started
    guard let curl = curl_easy_init() else { throw HTTPClientError(url: url, reason: "libcurl could not start a request") }
    defer { curl_easy_cleanup(curl) }
    let received = Received()
    let context = Unmanaged.passRetained(received)
    defer { context.release() }
    var fields: UnsafeMutablePointer<curl_slist>?
    defer { curl_slist_free_all(fields) }
    // An empty `Expect:` stops libcurl waiting for a 100 Continue before a large body.
    for line in headers.sorted(by: { $0.key < $1.key }).map({ "\($0.key): \($0.value)" }) + ["Expect:"] {
      fields = curl_slist_append(fields, line)
    }
    var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    let code: CURLcode = errorText.withUnsafeMutableBufferPointer { errorBuffer in
      // One byte stands in for an empty body: libcurl needs a pointer, and is told the size.
      let payload = body.map { $0.isEmpty ? Data([0]) : $0 } ?? Data()
      return payload.withUnsafeBytes { bytes in
        var setting = CURLE_OK
        func set(_ result: CURLcode) { if setting == CURLE_OK { setting = result } }
        set(wh_curl_set_pointer(curl, CURLOPT_URL, url.absoluteString))
        set(wh_curl_set_pointer(curl, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(wh_curl_set_long(curl, CURLOPT_NOSIGNAL, 1))
        set(wh_curl_set_long(curl, CURLOPT_TIMEOUT_MS, max(1, Int(timeout * 1000))))
        set(wh_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, errorBuffer.baseAddress))
        set(wh_curl_set_pointer(curl, CURLOPT_HTTPHEADER, fields))
        set(wh_curl_set_receivers(curl, Received.body, Received.header, context.toOpaque()))
        if method == "HEAD" {
          set(wh_curl_set_long(curl, CURLOPT_NOBODY, 1))
        } else if body != nil || method != "GET" {
          set(wh_curl_set_pointer(curl, CURLOPT_CUSTOMREQUEST, method))
        }
        if body != nil {
          set(wh_curl_set_size(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body?.count ?? 0)))
          set(wh_curl_set_pointer(curl, CURLOPT_POSTFIELDS, bytes.baseAddress))
        }
        guard setting == CURLE_OK else { return setting }
        return curl_easy_perform(curl)
      }
    }
    if received.tooLarge { throw HTTPClientError.tooLarge(url) }
    guard code == CURLE_OK else {
      let detail = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
      throw HTTPClientError(url: url, reason: reason)
    }
    return HTTPResponse(status: wh_curl_status(curl), headers: received.headers, body: received.data)
  }
}

/// What libcurl hands over while one request runs, on the calling thread.
private final class Received {
  var data = Data()
  var tooLarge = false
  /// Lower-cased names; the final answer's only (a 100 Continue's are dropped).
  var headers: [String: String] = [:]

  static let body: wh_curl_receiver = { bytes, size, count, context in
    let received = Unmanaged<Received>.fromOpaque(context!).takeUnretainedValue()
    // Answering fewer bytes than given makes libcurl stop the transfer.
    guard received.data.count + size * count <= httpAnswerLimit else {
      received.tooLarge = true
      return 0
    }
    if let bytes { received.data.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: size * count) }
    return size * count
  }

  static let header: wh_curl_receiver = { bytes, size, count, context in
    let received = Unmanaged<Received>.fromOpaque(context!).takeUnretainedValue()
    guard let bytes else { return size * count }
    let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: size * count), as: UTF8.self)
    if line.hasPrefix("HTTP/") {
      received.headers = [:]
    } else if let colon = line.firstIndex(of: ":") {
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      received.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
    }
    return size * count
  }
}
