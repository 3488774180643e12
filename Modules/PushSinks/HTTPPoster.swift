import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends one POST and reports the status; the network sinks' transport.
protocol HTTPPoster: Sendable {
  func post(_ url: URL, headers: [String: String], body: Data) throws -> Int
}

/// URLSession, waited on from the delivery thread (never from ingest).
struct URLSessionPoster: HTTPPoster {
  let timeout: TimeInterval

  func post(_ url: URL, headers: [String: String], body: Data) throws -> Int {
    var request = URLRequest(url: url, timeoutInterval: timeout)
    request.httpMethod = "POST"
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    final class Result: @unchecked Sendable {
      var status = 0
      var error: (any Error)?
    }
    let result = Result()
    let done = DispatchSemaphore(value: 0)
    let task = URLSession.shared.dataTask(with: request) { _, response, error in
      result.status = (response as? HTTPURLResponse)?.statusCode ?? 0
      result.error = error
      done.signal()
    }
    task.resume()
    done.wait()
    if let error = result.error { throw error }
    return result.status
  }
}
