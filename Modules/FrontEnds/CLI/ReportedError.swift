/// An error whose message was already printed in a report; only its exit
/// code is still needed.
struct ReportedError: Error {
  let underlying: any Error
}
