#!/usr/bin/env python3
"""Signed requests for the wrk workloads signed_post_metrics and signed_get_metrics (bench/profile.sh):
wrk's Lua has no HMAC, so the signatures are made here, beforehand, with t = now (valid for 300 s).

  sign.py SECRET get PATH_AND_QUERY FILE            one x-signature for a GET, reused by every request
  sign.py SECRET post COUNT THREADS FILE_PREFIX     COUNT signed metrics POSTs, each body its own (a write's
                                                    signature is accepted once), dealt to FILE_PREFIX1 ...
                                                    FILE_PREFIX<THREADS>, a line each: signature TAB body

The signature is the contract's: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t\\nMETHOD\\npath\\nhex(sha256(body)))>.
"""
import hashlib
import hmac
import sys
import time


def signature(secret, t, method, path, body):
    message = f"{t}\n{method}\n{path}\n{hashlib.sha256(body).hexdigest()}".encode()
    return f"t={t},v1={hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()}"


def main():
    secret, mode = sys.argv[1], sys.argv[2]
    t = int(time.time())
    if mode == "get":
        path, out = sys.argv[3], sys.argv[4]
        with open(out, "w") as f:
            f.write(signature(secret, t, "GET", path, b"") + "\n")
        return
    count, threads, prefix = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    files = [open(f"{prefix}{n + 1}", "w") for n in range(threads)]
    for n in range(count):
        thread = n % threads
        # the weight makes each body its own (60 kg and n hundred-thousandths: within its bounds)
        body = ('{"user_id":"u-sig-%d-%d","metrics":{"weight":%.5f,"resting_heart_rate":58}}'
                % (thread + 1, n % 16, 60 + n / 100000)).encode()
        files[thread].write(signature(secret, t, "POST", "/api/v1/health/metrics", body) + "\t" + body.decode() + "\n")
    for f in files:
        f.close()


if __name__ == "__main__":
    main()
