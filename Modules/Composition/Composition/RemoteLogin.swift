import CurlHTTP
import Foundation
import Persistence
import RemoteStore

/// Who `remote:URL` logs in as: the URL's user and password, else
/// `WHILEHERE_USER` / `WHILEHERE_PASSWORD`, else (at a terminal) asked.
enum RemoteLogin {
  static func open(_ argument: String?, environment: [String: String]) throws -> RemoteOperationStore {
    let login = try credentials(argument, environment: environment, key: "store")
    return try RemoteOperationStore(url: login.url, user: login.user, password: login.password, client: CurlHTTPClient())
  }

  static func credentials(_ argument: String?, environment: [String: String], key: String) throws -> (url: URL, user: String, password: String) {
    guard let argument, var components = URLComponents(string: argument), let scheme = components.scheme,
      ["http", "https"].contains(scheme), components.host != nil
    else {
      throw ConfigError.invalidValue(source: key, key: key, value: "\(argument ?? "")", allowed: "https://HOST (whilehered's address)")
    }
    let user = components.user ?? environment["WHILEHERE_USER"]
    var password = components.password ?? environment["WHILEHERE_PASSWORD"]
    components.user = nil
    components.password = nil
    guard let user, !user.isEmpty else {
      throw ConfigError.invalidValue(source: key, key: key, value: argument, allowed: "a user name: https://NAME@HOST or WHILEHERE_USER")
    }
    if password == nil, isatty(STDIN_FILENO) != 0, let typed = getpass("Password for \(user) at \(components.host!): ") {
      password = String(cString: typed)
    }
    guard let password else {
      throw ConfigError.invalidValue(source: key, key: key, value: argument, allowed: "a password: WHILEHERE_PASSWORD, or run at a terminal to be asked")
    }
    return (components.url!, user, password)
  }
}
