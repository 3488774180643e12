import Analytics
import Foundation
import Gateway
import Locking

/// `http:URL`: events batched as a JSON array and POSTed to a self-hosted
/// collector when the batch is full or on `flush` (a program's exit). A
/// failed post is dropped, never retried forever: usage counts are not
/// worth a person's battery or bandwidth.
public final class HTTPAnalytics: AnalyticsSink, Sendable {
  public let url: URL
  public var name: String { "http:\(url.absoluteString)" }
  let batchSize: Int
  let client: any HTTPSending
  let timeout: TimeInterval
  private let pending = Locked<[AnalyticsEvent]>([])

  public init(url: URL, client: any HTTPSending, batchSize: Int = 50, timeout: TimeInterval = 5) {
    self.url = url
    self.client = client
    self.batchSize = batchSize
    self.timeout = timeout
  }

  public func record(_ event: AnalyticsEvent) {
    let batchSize = batchSize
    let full = pending.withLock { pending -> Bool in
      pending.append(event)
      return pending.count >= batchSize
    }
    if full { flush() }
  }

  public func flush() {
    let batch = pending.withLock { pending -> [AnalyticsEvent] in
      defer { pending.removeAll() }
      return pending
    }
    guard !batch.isEmpty, let body = try? JSONEncoder().encode(batch) else { return }
    _ = try? client.send("POST", url, headers: ["Content-Type": "application/json"], body: body, timeout: timeout)
  }
}
