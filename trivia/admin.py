"""Staff curation of the trivia bank: questions, categories, reports, import and export."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    FloatField,
    OuterRef,
    Q,
    QuerySet,
    When,
)
from django.db.models.functions import Cast
from django.db.models.lookups import GreaterThan, LessThan
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils import timezone

from trivia import staging
from trivia.admin_guards import BoundedInputAdmin
from trivia.exporting import export_csv, export_opentdb_json
from trivia.importing import (
    FORMATS,
    MAX_FILE_BYTES,
    ImportFileError,
    import_questions,
    parse_file,
    plan_import,
)
from trivia.models import Category, Question, QuestionReport
from trivia.ratings import LABEL_MIN_ANSWERS, LABEL_RIGHT_PERCENT, label_contradicted
from trivia.services import question_pools_changed

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

# "Label contradicted": judged as trivia/ratings.py says (its thresholds, in one place).
RATE_MIN_ANSWERS = LABEL_MIN_ANSWERS

PREVIEW_ROWS = 200


WRONG_ANSWER_BOXES = 3


class WrongAnswersWidget(forms.MultiWidget):
    """One text box per wrong answer, posted as incorrect_answers_1, _2 and _3."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        boxes: dict[str, forms.Widget | type[forms.Widget]] = {
            str(n): forms.TextInput(attrs={"size": 60, "aria-label": f"Wrong answer {n}"})
            for n in range(1, WRONG_ANSWER_BOXES + 1)
        }
        super().__init__(boxes, attrs)

    def decompress(self, value: Any) -> list[Any]:
        return list(value) if isinstance(value, list) else []


class WrongAnswersField(forms.MultiValueField):
    """The wrong answers as a list: the boxes filled in, in order."""

    widget = WrongAnswersWidget

    def __init__(self, **kwargs: Any) -> None:
        boxes = [forms.CharField(required=False) for _ in range(WRONG_ANSWER_BOXES)]
        super().__init__(boxes, require_all_fields=False, required=False, **kwargs)

    def compress(self, data_list: list[Any]) -> list[str]:
        return [answer for answer in data_list if answer]


if TYPE_CHECKING:
    _QuestionModelForm = forms.ModelForm[Question]
else:
    # django-stubs types ModelForm as generic in its model; Django's own class takes no subscript.
    _QuestionModelForm = forms.ModelForm


class QuestionAdminForm(_QuestionModelForm):
    """Edits the wrong answers as three text boxes instead of raw JSON. The field keeps the
    model's name, so Question.clean()'s complaints about them show beside the boxes."""

    incorrect_answers = WrongAnswersField(
        label="Wrong answers",
        help_text="Three for a multiple-choice question; True/False fills in the other one.",
    )

    class Meta:
        model = Question
        fields = [
            "category",
            "text",
            "type",
            "difficulty",
            "correct_answer",
            "incorrect_answers",
            "active",
            "source",
        ]
        widgets = {
            "text": forms.Textarea(attrs={"rows": 3}),
            "correct_answer": forms.TextInput(attrs={"size": 60}),
        }

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        wrong = data.get("incorrect_answers") or []
        correct = (data.get("correct_answer") or "").strip()
        if data.get("type") == Question.Type.BOOLEAN and not wrong and correct in ("True", "False"):
            data["incorrect_answers"] = ["False" if correct == "True" else "True"]
        return data


class ReportedFilter(admin.SimpleListFilter):
    title = "reported"
    parameter_name = "reported"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("open", "Has unresolved reports"), ("none", "No unresolved reports")]

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[Question]
    ) -> QuerySet[Question] | None:
        open_reports = Exists(
            QuestionReport.objects.filter(question=OuterRef("pk"), resolved=False)
        )
        if self.value() == "open":
            return queryset.filter(open_reports)
        if self.value() == "none":
            return queryset.exclude(open_reports)
        return None


def contradicting_rate_q(kind: str | None = None) -> Q:
    """Questions whose share of right answers contradicts their label (trivia.ratings'
    label_contradicted, in SQL): ``too_hard`` below the label's lowest share, ``too_easy``
    above its highest, None either.

    Integer arithmetic (correct * 100 < threshold * asked) so it runs the same on
    SQLite and PostgreSQL with no division by zero.
    """
    enough = Q(times_asked__gte=LABEL_MIN_ANSWERS)
    correct_pct = F("times_correct") * 100
    too_hard = Q(pk__in=[])
    too_easy = Q(pk__in=[])
    for difficulty, (lowest, highest) in LABEL_RIGHT_PERCENT.items():
        label = Q(difficulty=difficulty)
        if lowest > 0:
            too_hard |= label & Q(LessThan(correct_pct, F("times_asked") * lowest))
        if highest < 100:
            too_easy |= label & Q(GreaterThan(correct_pct, F("times_asked") * highest))
    if kind == "too_hard":
        return enough & too_hard
    if kind == "too_easy":
        return enough & too_easy
    return enough & (too_hard | too_easy)


def _percent_range(kind: str) -> str:
    labels = dict(Question.Difficulty.choices)
    if kind == "too_hard":
        parts = [
            f"{labels[d]} under {low}%" for d, (low, _high) in LABEL_RIGHT_PERCENT.items() if low
        ]
    else:
        parts = [
            f"{labels[d]} over {high}%"
            for d, (_low, high) in LABEL_RIGHT_PERCENT.items()
            if high < 100
        ]
    return ", ".join(parts) + " right"


class RateContradictsFilter(admin.SimpleListFilter):
    title = "label contradicted"
    parameter_name = "rate"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("any", f"Any (≥{LABEL_MIN_ANSWERS} answers)"),
            ("too_hard", _percent_range("too_hard")),
            ("too_easy", _percent_range("too_easy")),
        ]

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[Question]
    ) -> QuerySet[Question] | None:
        value = self.value()
        if value not in {"any", "too_hard", "too_easy"}:
            return None
        return queryset.filter(contradicting_rate_q(None if value == "any" else value))


class ImportUploadForm(forms.Form):
    file = forms.FileField(
        help_text="OpenTDB JSON (envelope or list; HTML, base64 or url3986 encoded) or CSV."
    )
    format = forms.ChoiceField(choices=[(f, f) for f in FORMATS], initial="auto")
    category_default = forms.CharField(
        required=False,
        max_length=120,
        help_text="Used for rows without a category.",
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise ValidationError(f"The file is larger than {MAX_FILE_BYTES // 2**20} MB.")
        return upload


@admin.register(Question)
class QuestionAdmin(BoundedInputAdmin[Question]):
    form = QuestionAdminForm
    change_list_template = "admin/trivia/question/change_list.html"
    list_display = [
        "short_text",
        "category",
        "type",
        "difficulty",
        "active",
        "rating_display",
        "rated_answers",
        "times_asked",
        "times_correct",
        "correct_rate_display",
        "label_contradicted_display",
    ]
    list_filter = [
        "difficulty",
        "type",
        "category",
        "active",
        ReportedFilter,
        RateContradictsFilter,
    ]
    list_select_related = ["category"]
    search_fields = ["text", "correct_answer", "category__name"]
    readonly_fields = [
        "fingerprint",
        "rating",
        "rated_answers",
        "times_asked",
        "times_correct",
        "created",
        "updated",
    ]
    actions = ["activate", "deactivate", "export_json", "export_csv"]
    list_per_page = 50

    def get_queryset(self, request: HttpRequest) -> QuerySet[Question]:
        rate = Case(
            When(
                times_asked__gt=0,
                then=Cast("times_correct", FloatField()) / Cast("times_asked", FloatField()),
            ),
            default=None,
            output_field=FloatField(),
        )
        return super().get_queryset(request).annotate(correct_rate_value=rate)

    @admin.display(description="question", ordering="text")
    def short_text(self, obj: Question) -> str:
        return str(obj)

    @admin.display(description="right rate", ordering="correct_rate_value")
    def correct_rate_display(self, obj: Question) -> str:
        rate = obj.correct_rate
        return "—" if rate is None else f"{rate:.0%}"

    @admin.display(description="rating", ordering="rating")
    def rating_display(self, obj: Question) -> int:
        return round(obj.rating)

    @admin.display(description="label contradicted", boolean=True)
    def label_contradicted_display(self, obj: Question) -> bool:
        return label_contradicted(
            difficulty=obj.difficulty, answers=obj.times_asked, right=obj.times_correct
        )

    @admin.action(description="Activate selected questions", permissions=["change"])
    def activate(self, request: HttpRequest, queryset: QuerySet[Question]) -> None:
        count = queryset.update(active=True)
        question_pools_changed()  # an update sends no signal
        self.message_user(request, f"Activated {count} questions.", messages.SUCCESS)

    @admin.action(description="Deactivate selected questions", permissions=["change"])
    def deactivate(self, request: HttpRequest, queryset: QuerySet[Question]) -> None:
        count = queryset.update(active=False)
        question_pools_changed()  # an update sends no signal
        self.message_user(request, f"Deactivated {count} questions.", messages.SUCCESS)

    @admin.action(description="Export selected questions as OpenTDB JSON")
    def export_json(self, request: HttpRequest, queryset: QuerySet[Question]) -> HttpResponse:
        body = export_opentdb_json(queryset.select_related("category").order_by("id"))
        return _download(body, "application/json", "trivia-questions.json")

    @admin.action(description="Export selected questions as CSV")
    def export_csv(self, request: HttpRequest, queryset: QuerySet[Question]) -> HttpResponse:
        body = export_csv(queryset.select_related("category").order_by("id"))
        return _download(body, "text/csv", "trivia-questions.csv")

    # ----------------------------------------------------------------- import views

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path("import/", wrap(self.import_view), name="trivia_question_import"),
            path(
                "import/confirm/",
                wrap(self.import_confirm_view),
                name="trivia_question_import_confirm",
            ),
            *super().get_urls(),
        ]

    def _check_import_permission(self, request: HttpRequest) -> None:
        # admin_view already requires an active staff user; importing also needs "add".
        if not self.has_add_permission(request):
            raise PermissionDenied

    def _context(self, request: HttpRequest, **extra: Any) -> dict[str, Any]:
        return {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Import questions",
            **extra,
        }

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload then preview: parses and checks duplicates, writes nothing."""
        self._check_import_permission(request)
        form = ImportUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data["file"].read()
            fmt = form.cleaned_data["format"]
            category_default = form.cleaned_data["category_default"]
            try:
                plan = plan_import(parse_file(data, fmt=fmt, category_default=category_default))
            except ImportFileError as exc:
                form.add_error("file", f"Cannot import this file: {exc}.")
            else:
                name = form.cleaned_data["file"].name[:80]
                token = staging.stage(
                    request.session,
                    data,
                    {"name": name, "format": fmt, "category_default": category_default},
                )
                context = self._context(
                    request,
                    plan=plan,
                    token=token,
                    file_name=name,
                    to_add=plan.to_add[:PREVIEW_ROWS],
                    duplicates=plan.duplicates[:PREVIEW_ROWS],
                    more_to_add=max(0, len(plan.to_add) - PREVIEW_ROWS),
                    more_duplicates=max(0, len(plan.duplicates) - PREVIEW_ROWS),
                )
                return render(request, "admin/trivia/question/import_preview.html", context)
        return render(
            request, "admin/trivia/question/import_form.html", self._context(request, form=form)
        )

    def import_confirm_view(self, request: HttpRequest) -> HttpResponse:
        """Write the staged file in one transaction; re-checks duplicates at this moment."""
        self._check_import_permission(request)
        changelist = reverse("admin:trivia_question_changelist")
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:trivia_question_import"))
        token = request.POST.get("token", "")
        staged = staging.load(request.session, token)
        if staged is None:
            self.message_user(
                request,
                "That import preview has expired or belongs to another session; upload again.",
                messages.ERROR,
            )
            return HttpResponseRedirect(reverse("admin:trivia_question_import"))
        data, meta = staged
        if "cancel" in request.POST:
            staging.discard(request.session, token)
            self.message_user(request, "Import cancelled; nothing was written.", messages.INFO)
            return HttpResponseRedirect(changelist)
        try:
            result = import_questions(
                data,
                fmt=meta["format"],
                category_default=meta.get("category_default") or None,
                source=f"admin:{meta['name']}",
            )
        except ImportFileError as exc:
            self.message_user(request, f"Cannot import this file: {exc}.", messages.ERROR)
            return HttpResponseRedirect(reverse("admin:trivia_question_import"))
        finally:
            staging.discard(request.session, token)
        plan = result.plan
        self.message_user(
            request,
            f"Imported {result.added} questions from {meta['name']}; "
            f"{len(plan.duplicates)} duplicates and {len(plan.invalid)} invalid rows skipped.",
            messages.SUCCESS,
        )
        return HttpResponseRedirect(changelist)


def _download(body: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class _CategoryCounts(TypedDict):
    """What CategoryAdmin.get_queryset annotates each category with."""

    question_count: int
    active_count: int


@admin.register(Category)
class CategoryAdmin(BoundedInputAdmin[Category]):
    list_display = ["name", "question_count", "active_count"]
    search_fields = ["name"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Category]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                question_count=Count("questions"),
                active_count=Count("questions", filter=Q(questions__active=True)),
            )
        )

    @admin.display(description="questions", ordering="question_count")
    def question_count(self, obj: WithAnnotations[Category, _CategoryCounts]) -> int:
        return obj.question_count

    @admin.display(description="active", ordering="active_count")
    def active_count(self, obj: WithAnnotations[Category, _CategoryCounts]) -> int:
        return obj.active_count


@admin.register(QuestionReport)
class QuestionReportAdmin(BoundedInputAdmin[QuestionReport]):
    list_display = ["question", "reason", "reporter", "created", "resolved", "resolved_by"]
    list_filter = ["resolved", "reason"]
    list_select_related = ["question", "reporter", "resolved_by"]
    search_fields = ["question__text", "note"]
    raw_id_fields = ["question", "reporter"]
    readonly_fields = ["created", "resolved_by", "resolved_at"]
    actions = ["mark_resolved"]

    @admin.action(description="Mark selected reports resolved", permissions=["change"])
    def mark_resolved(self, request: HttpRequest, queryset: QuerySet[QuestionReport]) -> None:
        count = queryset.filter(resolved=False).update(
            resolved=True, resolved_by=request.user, resolved_at=timezone.now()
        )
        self.message_user(request, f"Marked {count} reports resolved.", messages.SUCCESS)
