"""Race with friends (SPEC N1–N11): the table's rules, the host, the protocol and
the transport interface — pure Python, no ``js``/``pyodide`` import."""
