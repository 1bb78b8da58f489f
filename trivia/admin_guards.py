"""What every admin list of the site's apps refuses before it reaches the database.

Django's admin hands a list's filters from the query string, and the rows an action was
posted for, to the database as they come: PostgreSQL refuses a NUL byte in a parameter,
and a selected row that is no id fails the action's query; either was a server error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest

from trivia.models import NUL, ROW_ID_MAX


def _is_row_id(text: str) -> bool:
    return len(text) <= 19 and text.isascii() and text.isdigit() and 1 <= int(text) <= ROW_ID_MAX


_ModelT = TypeVar("_ModelT", bound=Model)
_ChildModelT = TypeVar("_ChildModelT", bound=Model)
_ParentModelT = TypeVar("_ParentModelT", bound=Model)

if TYPE_CHECKING:
    from django.contrib.admin import ModelAdmin as _ModelAdmin
    from django.contrib.admin import TabularInline as TabularInline
else:
    # django-stubs types the admin classes as generic in their models (ModelAdmin[Question],
    # TabularInline[Round, Game]); Django's own classes take no subscript. These subclasses
    # add only that (through Generic), so the admins below can name their models.

    class _ModelAdmin(admin.ModelAdmin, Generic[_ModelT]):
        pass

    class TabularInline(admin.TabularInline, Generic[_ChildModelT, _ParentModelT]):
        pass


class BoundedInputAdmin(_ModelAdmin[_ModelT]):
    """A filter value holding a NUL byte is a disallowed lookup (400); an action posted for
    rows that are not ids answers 400 and runs on none of them."""

    def lookup_allowed(self, lookup: str, value: Any, request: HttpRequest | None = None) -> bool:
        return NUL not in str(value) and super().lookup_allowed(lookup, value, request)

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        selected = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        if not all(_is_row_id(value) for value in selected):
            return HttpResponseBadRequest("The rows selected are not rows of this list.")
        return super().changelist_view(request, extra_context)
