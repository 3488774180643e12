#!/usr/bin/env python3
"""Writes Modules/Shims/<Shim>/loader.c: for every function of a C library
the project calls, a function of the same name and type that loads the
library at its first call (CLibraryLoading) and jumps to the real one.

Why: a program start that maps a library pays for it and for everything
it pulls in (libmicrohttpd brings GnuTLS, libnats and libmosquitto bring
OpenSSL, libcurl a dozen more); together about 10 ms of every `whilehere`
command, which needs none of them unless it touches a `nats:` or
`sqlite:` store, a sink or a password. Nothing links these libraries
any more; the loaders are the only way in.

Run it after calling a function of one of these libraries that no Swift
file or shim header called before (the link fails with "undefined
reference" until then). Needs clang (the Swift toolchain's) and the
libraries' -dev packages (scripts/setup.sh installs them).

    python3 scripts/make-library-loaders.py
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# shim folder, the library's names to load (the versioned name first; the
# unversioned one the -dev package installs when the version differs), the
# header to read prototypes from, what needs it (for the error a person sees)
# and the Debian package that holds it.
LIBRARIES = [
    ("CNATS", ["libnats.so.3.4", "libnats.so"], "nats/nats.h", "nats: stores and the cluster", "libnats3.4"),
    ("CMicroHTTPD", ["libmicrohttpd.so.12", "libmicrohttpd.so"], "microhttpd.h", "whilehered's HTTP server", "libmicrohttpd12"),
    ("CMosquitto", ["libmosquitto.so.1", "libmosquitto.so"], "mosquitto.h", "MQTT", "libmosquitto1"),
    ("CSodium", ["libsodium.so.23", "libsodium.so"], "sodium.h", "passwords, device keys and signed links", "libsodium23"),
    ("CSQLite", ["libsqlite3.so.0", "libsqlite3.so"], "sqlite3.h", "sqlite: stores", "libsqlite3-0"),
    ("CCrypt", ["libcrypt.so.1", "libcrypt.so"], "crypt.h", "nats-server password hashes", "libcrypt1"),
    ("CCurl", ["libcurl.so.4", "libcurl.so"], "curl/curl.h", "HTTP requests (sinks, remote: stores, Overpass)", "libcurl4"),
]

# Variadic functions are forwarded to the library's va_list form by hand.
VARIADIC = {
    "MHD_start_daemon": (
        "struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,\n"
        "                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...) {\n"
        "  static void *_Atomic slot;\n"
        "  va_list ap;\n"
        "  va_start(ap, dh_cls);\n"
        "  struct MHD_Daemon *daemon = ((__typeof__(&MHD_start_daemon_va))wh_library_function(&library, &slot, \"MHD_start_daemon_va\"))(\n"
        "      flags, port, apc, apc_cls, dh, dh_cls, ap);\n"
        "  va_end(ap);\n"
        "  return daemon;\n"
        "}\n"
    ),
    # The information WhileHere asks of libmicrohttpd takes no further arguments.
    "MHD_get_connection_info": (
        "const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *connection,\n"
        "                                                        enum MHD_ConnectionInfoType info_type, ...) {\n"
        "  static void *_Atomic slot;\n"
        "  const union MHD_ConnectionInfo *(*get)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...) =\n"
        "      wh_library_function(&library, &slot, \"MHD_get_connection_info\");\n"
        "  return get(connection, info_type);\n"
        "}\n"
    ),
    "MHD_get_daemon_info": (
        "const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...) {\n"
        "  static void *_Atomic slot;\n"
        "  const union MHD_DaemonInfo *(*get)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...) =\n"
        "      wh_library_function(&library, &slot, \"MHD_get_daemon_info\");\n"
        "  return get(daemon, info_type);\n"
        "}\n"
    ),
    # curl_easy_setopt takes one value whose kind its option's number says.
    "curl_easy_setopt": (
        "CURLcode (curl_easy_setopt)(CURL *curl, CURLoption option, ...) {\n"
        "  static void *_Atomic slot;\n"
        "  CURLcode (*set)(CURL *, CURLoption, ...) = wh_library_function(&library, &slot, \"curl_easy_setopt\");\n"
        "  va_list ap;\n"
        "  va_start(ap, option);\n"
        "  CURLcode code;\n"
        "  if (option < CURLOPTTYPE_OBJECTPOINT) code = set(curl, option, va_arg(ap, long));\n"
        "  else if (option < CURLOPTTYPE_FUNCTIONPOINT) code = set(curl, option, va_arg(ap, void *));\n"
        "  else if (option < CURLOPTTYPE_OFF_T) code = set(curl, option, va_arg(ap, void (*)(void)));\n"
        "  else if (option < CURLOPTTYPE_BLOB) code = set(curl, option, va_arg(ap, curl_off_t));\n"
        "  else code = set(curl, option, va_arg(ap, void *));\n"
        "  va_end(ap);\n"
        "  return code;\n"
        "}\n"
    ),
    # Every CURLINFO_ answer is written through one pointer.
    "curl_easy_getinfo": (
        "CURLcode (curl_easy_getinfo)(CURL *curl, CURLINFO info, ...) {\n"
        "  static void *_Atomic slot;\n"
        "  CURLcode (*get)(CURL *, CURLINFO, ...) = wh_library_function(&library, &slot, \"curl_easy_getinfo\");\n"
        "  va_list ap;\n"
        "  va_start(ap, info);\n"
        "  CURLcode code = get(curl, info, va_arg(ap, void *));\n"
        "  va_end(ap);\n"
        "  return code;\n"
        "}\n"
    ),
}


def exported(soname):
    """Functions the installed library exports."""
    path = "/usr/lib/x86_64-linux-gnu/" + soname
    if not os.path.exists(path):
        path = subprocess.run(["sh", "-c", "ldconfig -p | awk '/%s /{print $NF; exit}'" % re.escape(soname)], capture_output=True, text=True).stdout.strip()
    out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if " T " in line}


def called(names):
    """Which of `names` the project's sources and the shim's header mention."""
    words = set()
    for folder in ["Modules", "Apps", "Tests", "Benchmarks", "Fuzz"]:
        for base, _, files in os.walk(os.path.join(ROOT, folder)):
            if "/.build" in base:
                continue
            for name in files:
                if name.endswith((".swift", ".h")) and not name == "loader.c":
                    with open(os.path.join(base, name), encoding="utf-8", errors="replace") as handle:
                        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", handle.read()))
    return sorted(names & words)


def prototypes(header):
    """Every function declared by `header`: name -> (return, [parameter types], variadic)."""
    source = "#include <stdint.h>\n#include <stddef.h>\n#include <%s>\n" % header
    out = subprocess.run(
        ["clang", "-x", "c", "-I/usr/include/p11-kit-1", "-Xclang", "-ast-dump=json", "-fsyntax-only", "-"],
        input=source, capture_output=True, text=True, check=True).stdout
    found = {}

    def walk(node):
        if node.get("kind") == "FunctionDecl" and "name" in node:
            parameters = [child["type"]["qualType"] for child in node.get("inner", []) if child.get("kind") == "ParmVarDecl"]
            whole = node["type"]["qualType"]
            found[node["name"]] = (whole, parameters, node.get("variadic", False))
        for child in node.get("inner", []):
            walk(child)

    walk(json.loads(out))
    return found


def return_type(whole):
    """`natsStatus (natsConnection **, natsOptions *)` -> `natsStatus`."""
    depth = 0
    for index in range(len(whole) - 1, -1, -1):
        if whole[index] == ")":
            depth += 1
        elif whole[index] == "(":
            depth -= 1
            if depth == 0:
                result = whole[:index].strip()
                if "(" in result:
                    raise SystemExit("cannot write a loader for a function returning %r" % result)
                return result
    raise SystemExit("not a function type: %r" % whole)


def stub(name, whole, parameters):
    result = return_type(whole)
    arguments = ", ".join("a%d" % index for index in range(len(parameters)))
    declared = ", ".join("__typeof__(%s) a%d" % (kind, index) for index, kind in enumerate(parameters)) or "void"
    call = '((__typeof__(&%s))wh_library_function(&library, &slot, "%s"))(%s)' % (name, name, arguments)
    body = ("  %s;\n" % call) if result == "void" else ("  return %s;\n" % call)
    return "%s %s(%s) {\n  static void *_Atomic slot;\n%s}\n" % (result, name, declared, body)


def main():
    for shim, sonames, header, purpose, package in LIBRARIES:
        names = called(exported(sonames[0]))
        declared = prototypes(header)
        parts = [
            "// Written by scripts/make-library-loaders.py: do not edit, run it again.\n"
            "// Each function loads %s at its first call and calls the real one.\n" % sonames[0],
            # curl.h's type-checking macros would rename the definitions below.
            ("#define CURL_DISABLE_TYPECHECK 1\n" if header.startswith("curl/") else "")
            + "#include <stdarg.h>\n#include <stdint.h>\n#include <stddef.h>\n#include <%s>\n#include \"library_loading.h\"\n\n" % header,
            "static struct wh_library library = {{%s}, \"%s\", \"%s\"};\n\n"
            % (", ".join('"%s"' % s for s in sonames) + ", NULL", purpose, package),
        ]
        for name in names:
            if name in VARIADIC:
                parts.append(VARIADIC[name] + "\n")
                continue
            if name not in declared:
                raise SystemExit("%s: %s is exported but %s does not declare it" % (shim, name, header))
            whole, parameters, variadic = declared[name]
            if variadic:
                raise SystemExit("%s: %s is variadic; add it to VARIADIC" % (shim, name))
            parts.append(stub(name, whole, parameters) + "\n")
        target = os.path.join(ROOT, "Modules", "Shims", shim, "loader.c")
        with open(target, "w") as handle:
            handle.write("".join(parts).rstrip() + "\n")
        print("%s: %d functions" % (os.path.relpath(target, ROOT), len(names)))


if __name__ == "__main__":
    sys.exit(main())
