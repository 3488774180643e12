import Foundation
import Gateway
import Testing

/// The map page's sign-in: a session cookie that scripts cannot read and
/// other sites cannot send, a CSRF token on every change, the same slowing
/// of guesses as HTTP Basic, and sign-out that ends the session here.
@Suite struct WebSessionTests {
  static let json = ["Content-Type": "application/json"]

  /// Signs alice in; the cookie value and the CSRF token.
  func signIn(_ daemon: DaemonHarness, password: String = DaemonHarness.passwords["alice"]!, client: String = "127.0.0.1") -> (cookie: String, csrf: String)? {
    let response = daemon.send("POST", "/web/session", body: #"{"name":"alice","password":"\#(password)"}"#, as: nil, headers: Self.json, client: client)
    guard response.status == 200, let header = response.headers["Set-Cookie"],
      let csrf = (daemon.json(response) as? [String: Any])?["csrf"] as? String
    else { return nil }
    let value = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)[1]
    return (String(value), csrf)
  }

  @Test func signingInSetsACookieScriptsCannotReadAndOtherSitesCannotSend() throws {
    let daemon = try DaemonHarness()
    let response = daemon.send("POST", "/web/session", body: #"{"name":"alice","password":"alice-secret"}"#, as: nil, headers: Self.json)
    #expect(response.status == 200)
    let cookie = try #require(response.headers["Set-Cookie"])
    #expect(cookie.hasPrefix("wh_session="))
    for attribute in ["HttpOnly", "SameSite=Strict", "Secure", "Path=/"] {
      #expect(cookie.contains(attribute), "\(attribute) in \(cookie)")
    }
    #expect((daemon.json(response) as? [String: Any])?["person"] as? String == "alice")
  }

  /// 512 `[` after a field name made Foundation's decoder trap, taking the
  /// whole daemon down for one request anyone could send without a password.
  @Test func aBodyNestedPastTheDecodersLimitIsRefusedAndTheDaemonStaysUp() throws {
    let daemon = try DaemonHarness()
    let bomb = #"{"name":"# + String(repeating: "[", count: 512)
    #expect(daemon.send("POST", "/web/session", body: bomb, as: nil, headers: Self.json).status == 400)
    #expect(daemon.send("POST", "/api/v1/tasks", body: #"{"title":"# + String(repeating: "[", count: 512), headers: Self.json).status == 400)
    #expect(try daemon.store("alice").operations(since: nil).isEmpty)
    #expect(signIn(daemon) != nil, "the daemon still answers")
  }

  @Test func theCookieReadsButChangesNeedTheCSRFToken() throws {
    let daemon = try DaemonHarness()
    let session = try #require(signIn(daemon))
    let cookie = ["Cookie": "theme=dark; wh_session=\(session.cookie)"]
    #expect(daemon.send("GET", "/api/v1/tasks", as: nil, headers: cookie).status == 200)
    let body = #"{"title":"Buy milk","locations":[{"at":"60.1699,24.9384"}]}"#
    let forged = daemon.send("POST", "/api/v1/tasks", body: body, as: nil, headers: cookie)
    #expect(forged.status == 403)
    let wrong = daemon.send("POST", "/api/v1/tasks", body: body, as: nil, headers: cookie.merging(["X-CSRF-Token": "guess"]) { a, _ in a })
    #expect(wrong.status == 403)
    #expect(try daemon.store("alice").operations(since: nil).isEmpty, "nothing was stored by the refused changes")
    let made = daemon.send("POST", "/api/v1/tasks", body: body, as: nil, headers: cookie.merging(["X-CSRF-Token": session.csrf]) { a, _ in a })
    #expect(made.status == 201)
  }

  @Test func aReloadedPageLearnsWhoIsSignedInAndTheToken() throws {
    let daemon = try DaemonHarness()
    let session = try #require(signIn(daemon))
    let who = daemon.send("GET", "/web/session", as: nil, headers: ["Cookie": "wh_session=\(session.cookie)"])
    #expect(who.status == 200)
    #expect((daemon.json(who) as? [String: Any])?["csrf"] as? String == session.csrf)
    #expect(daemon.send("GET", "/web/session", as: nil).status == 401)
    #expect(daemon.send("GET", "/web/session", as: nil, headers: ["Cookie": "wh_session=made-up"]).status == 401)
  }

  @Test func signingOutEndsTheSessionOnTheServer() throws {
    let daemon = try DaemonHarness()
    let session = try #require(signIn(daemon))
    let cookie = ["Cookie": "wh_session=\(session.cookie)"]
    #expect(daemon.send("DELETE", "/web/session", as: nil, headers: cookie).status == 403, "signing out needs the token too")
    let out = daemon.send("DELETE", "/web/session", as: nil, headers: cookie.merging(["X-CSRF-Token": session.csrf]) { a, _ in a })
    #expect(out.status == 200)
    #expect(out.headers["Set-Cookie"]?.contains("Max-Age=0") == true)
    #expect(daemon.send("GET", "/api/v1/tasks", as: nil, headers: cookie).status == 401, "a copy of the cookie no longer works")
  }

  @Test func anIdleSessionEndsAfterADay() throws {
    let daemon = try DaemonHarness()
    let session = try #require(signIn(daemon))
    let cookie = ["Cookie": "wh_session=\(session.cookie)"]
    daemon.clock.advance(by: 23 * 3600)
    #expect(daemon.send("GET", "/api/v1/tasks", as: nil, headers: cookie).status == 200, "used within a day: still signed in")
    daemon.clock.advance(by: 23 * 3600)
    #expect(daemon.send("GET", "/api/v1/tasks", as: nil, headers: cookie).status == 200, "its idle time was renewed")
    daemon.clock.advance(by: 25 * 3600)
    let ended = daemon.send("GET", "/api/v1/tasks", as: nil, headers: cookie)
    #expect(ended.status == 401)
    #expect(ended.headers["WWW-Authenticate"] == nil, "the page is not answered with the browser's own password dialog")
  }

  @Test func guessingOnThePageIsSlowedLikeBasicAndSharesItsCount() throws {
    let daemon = try DaemonHarness()
    let client = "10.0.0.7"
    let wrong = daemon.send("POST", "/web/session", body: #"{"name":"alice","password":"guess"}"#, as: nil, headers: Self.json, client: client)
    #expect(wrong.status == 401)
    #expect(wrong.headers["WWW-Authenticate"] == nil)
    #expect(wrong.headers["Set-Cookie"] == nil)
    for _ in 0..<3 { _ = daemon.send("POST", "/web/session", body: #"{"name":"alice","password":"guess"}"#, as: nil, headers: Self.json, client: client) }
    _ = daemon.send("GET", "/api/v1/tasks", password: "guess", client: client)
    #expect(signIn(daemon, client: client) == nil, "five failures from page and Basic together slow that address for alice")
    #expect(daemon.send("POST", "/web/session", body: #"{"name":"alice","password":"alice-secret"}"#, as: nil, headers: Self.json, client: client).status == 429)
    #expect(signIn(daemon, client: "10.0.0.8") != nil, "alice from elsewhere is not slowed")
  }

  @Test(arguments: ["", #"{"name":"alice"}"#, "not json", #"{"name":1,"password":2}"#])
  func aMalformedSignInIsRefusedClearly(body: String) throws {
    let daemon = try DaemonHarness()
    let response = daemon.send("POST", "/web/session", body: body, as: nil, headers: Self.json)
    #expect(response.status == 400)
    #expect(String(decoding: response.body, as: UTF8.self).contains("name"))
  }

  /// A form on another site can post text/plain that looks like JSON; only
  /// a script on this origin can send application/json without a preflight.
  @Test func aSignInThatIsNotDeclaredJSONIsRefused() throws {
    let daemon = try DaemonHarness()
    let forged = daemon.send(
      "POST", "/web/session", body: #"{"name":"alice","password":"alice-secret"}"#, as: nil, headers: ["Content-Type": "text/plain"])
    #expect(forged.status == 415)
    #expect(forged.headers["Set-Cookie"] == nil)
  }
}
