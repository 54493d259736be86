from typing import Any

def create_app(conf_file: str) -> Any: ...   # a Starlette ASGI app
