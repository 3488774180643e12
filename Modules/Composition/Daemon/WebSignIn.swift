import Domain
import Foundation
import Gateway

/// `/web/session`: the map page signs in with a name and password (the
/// same check and slowing as HTTP Basic), learns who is signed in and the
/// CSRF token after a reload, and signs out (the session ends here too).
struct WebSignIn {
  let handler: DaemonHandler

  struct Credentials: Decodable {
    let name: String
    let password: String
  }

  struct SessionView: Encodable {
    let person: String
    let csrf: String
  }

  func handle(_ request: HTTPRequest) -> HTTPResponse {
    let cookie = WebSessions.cookie(in: request.header("cookie"))
    let now = handler.clock()
    switch request.method {
    case "POST":
      // A form on another site cannot send this type without a preflight this server never answers (no login CSRF).
      guard request.header("content-type")?.lowercased().hasPrefix("application/json") == true else {
        return .failure(415, "sign in with Content-Type: application/json")
      }
      guard let credentials = try? JSONDecoder().decodeOutside(Credentials.self, from: request.body) else {
        return .failure(400, "sign in with a JSON object {\"name\": …, \"password\": …}")
      }
      switch handler.people.verify(user: credentials.name, password: credentials.password, client: request.clientAddress, now: now) {
      case .failure(let refusal):
        return handler.answer(refusal, request: request, basic: false)
      case .success(let person):
        // A session the browser already had is replaced, not kept beside the new one.
        if let cookie { handler.sessions.close(cookie) }
        let (value, session) = handler.sessions.open(person: person.name, now: now)
        handler.log("signed-in", ["person": person.name, "client": request.clientAddress])
        var response = HTTPResponse.json(200, encoding: SessionView(person: session.person, csrf: session.csrf))
        response.headers["Set-Cookie"] = setCookie(value, maxAge: Int(handler.sessions.lifetime))
        response.headers["Cache-Control"] = "no-store"
        return response
      }
    case "GET":
      guard let cookie, let session = handler.sessions.find(cookie, now: now) else { return .failure(401, "not signed in") }
      var response = HTTPResponse.json(200, encoding: SessionView(person: session.person, csrf: session.csrf))
      response.headers["Cache-Control"] = "no-store"
      return response
    case "DELETE":
      guard let cookie, let session = handler.sessions.find(cookie, now: now) else { return .failure(401, "not signed in") }
      guard let token = request.header("x-csrf-token"), WebSessions.same(token, session.csrf) else {
        return .failure(403, "signing out must carry the session's X-CSRF-Token")
      }
      handler.sessions.close(cookie)
      var response = HTTPResponse.json(200, encoding: ["signedOut": session.person])
      response.headers["Set-Cookie"] = setCookie("", maxAge: 0)
      return response
    default:
      return .failure(405, "\(request.method) is not allowed on /web/session (POST signs in, GET tells who, DELETE signs out)")
    }
  }

  /// HttpOnly (no script reads it), SameSite=Strict (no other site sends
  /// it), Secure when the public URL is https.
  func setCookie(_ value: String, maxAge: Int) -> String {
    "\(WebSessions.cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(maxAge)" + (handler.secureCookies ? "; Secure" : "")
  }
}
