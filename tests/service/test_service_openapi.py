"""The OpenAPI document matches the behaviour: schemathesis generates requests from it against the app
in-process and checks every response (no 5xx, documented status codes and content types, bodies that
conform to the schemas)."""
from __future__ import annotations

from typing import Iterator

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                               status_code_conformance)

from referee.service import create_app
from referee.service.api import openapi_document
from referee.service.extension import ext

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    url = f"sqlite:///{tmp_path_factory.mktemp('openapi') / 'referee.sqlite'}"
    app = create_app({"DATABASE_URL": url, "TESTING": True})
    yield app
    with app.app_context():
        ext().close()


schema = schemathesis.openapi.from_dict(openapi_document())


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms(case: schemathesis.Case, app: Flask) -> None:
    case.call_and_validate(app=app, checks=CHECKS)
