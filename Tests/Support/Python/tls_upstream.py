"""An HTTPS upstream for Tapedeck's TLS tests, with a throwaway CA of its own.

    tls_upstream.py DIR [valid|self-signed|expired]

Writes DIR/upstream-ca.pem (the CA that signed its certificate; for self-signed, the
certificate itself), listens on 127.0.0.1 with a certificate for localhost and 127.0.0.1,
prints its port on the first line, and answers every request with JSON naming the method,
path, Host header and body it received.
"""
import datetime
import http.server
import ipaddress
import json
import os
import ssl
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def certificate(subject, issuer, key, signer, ca, start, end):
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(start).not_valid_after(end))
    if ca:
        builder = builder.add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        builder = builder.add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    else:
        builder = builder.add_extension(x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    return builder.sign(signer, hashes.SHA256())


def pem(cert):
    return cert.public_bytes(serialization.Encoding.PEM)


def write_certificates(directory, mode="valid"):
    """Writes DIR/upstream-ca.pem, upstream.pem and upstream-key.pem; returns (cert path, key path)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    day = datetime.timedelta(days=1)
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    if mode == "self-signed":
        leaf = certificate(name("localhost"), name("localhost"), leaf_key, leaf_key, False, now - day, now + day)
        ca_pem = pem(leaf)
    else:
        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca = certificate(name("Upstream Test CA"), name("Upstream Test CA"), ca_key, ca_key, True, now - 30 * day, now + 30 * day)
        start, end = (now - 20 * day, now - 10 * day) if mode == "expired" else (now - day, now + day)
        leaf = certificate(name("localhost"), ca.subject, leaf_key, ca_key, False, start, end)
        ca_pem = pem(ca)
    with open(os.path.join(directory, "upstream-ca.pem"), "wb") as out:
        out.write(ca_pem)
    cert_path, key_path = os.path.join(directory, "upstream.pem"), os.path.join(directory, "upstream-key.pem")
    with open(cert_path, "wb") as out:
        out.write(pem(leaf))
    with open(key_path, "wb") as out:
        out.write(leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption()))
    return cert_path, key_path


def main():
    directory, mode = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "valid")
    cert_path, key_path = write_certificates(directory, mode)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            data = json.dumps({"method": self.command, "path": self.path, "host": self.headers.get("Host"),
                               "body": body}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = answer

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, key_path)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
