"""A player's own login: sign up (confirmed by e-mail), where a login lands, claiming his player
record, and the TD's list of claims to decide. The rules are in `services.registration`."""

from __future__ import annotations

from urllib.parse import urlsplit

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.db.models import Q
from django.http import HttpResponseRedirect
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.template import loader
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.fields import POSITIVE_INT_MAX, posted_number
from config.languages import in_language_of
from config.links import site_url
from config.security import MAIL_LIMIT_REFUSAL, mail_allowed
from games.models import Player

from ..models import (
    ClaimStatus,
    Flight,
    PlayerAccount,
    PlayerClaim,
    PublicName,
    Tournament,
    WaitingEntry,
    public_name,
)
from ..permissions import runs_events
from ..services import registration
from .common import error_text

PLAYERS_FOUND = 20
"""Players listed for a name typed in the claim search."""


class SignupForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("User name"), max_length=150,
                               help_text=gettext_lazy("Letters, digits and @ . + - _ only."))
    email = forms.EmailField(label=gettext_lazy("E-mail address"),
                             help_text=gettext_lazy("A link to confirm your login is sent there."))
    password = forms.CharField(label=gettext_lazy("Password"), widget=forms.PasswordInput, strip=False,
                               help_text=gettext_lazy("At least 8 characters, not only digits, not like your name."))


class CheckInWindowForm(forms.Form):
    minutes = forms.IntegerField(label=gettext_lazy("Minutes"), min_value=registration.CHECK_IN_MINUTES[0],
                                 max_value=registration.CHECK_IN_MINUTES[1],
                                 error_messages={"required": gettext_lazy("Say for how many minutes check-in stays open.")})


class RegistrationOpenForm(forms.Form):
    closes = forms.DateTimeField(label=gettext_lazy("Closes"), required=False)
    cap = forms.IntegerField(label=gettext_lazy("Places"), min_value=2, max_value=POSITIVE_INT_MAX, required=False)


def _refusals(form, error: ValidationError) -> None:
    for field, texts in error.message_dict.items():
        for text in texts:
            form.add_error(field if field in form.fields else None, text)


def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and mail_allowed(request, purpose="signup",
                                                                     address=form.cleaned_data["email"]):
        form.add_error(None, MAIL_LIMIT_REFUSAL)
        return render(request, "registration/signup.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = registration.account_signup(
                username=data["username"], email=data["email"], password=data["password"],
                confirm_url=lambda uid, token: site_url(reverse("signup-confirm", args=[uid, token])),
                language=translation.get_language(),
            )
        except ValidationError as error:
            _refusals(form, error)
        else:
            return render(request, "registration/signup_sent.html", {
                "email": user.email, "again": user.get_username() if user.confirmation_resent else ""})
    return render(request, "registration/signup.html", {"form": form},
                  status=400 if form.is_bound and form.errors else 200)


def signup_confirm(request, uid: str, token: str):
    try:
        user = registration.account_confirm(uid=uid, token=token)
    except ValidationError as error:
        return render(request, "registration/signup_invalid.html", {"reason": error_text(error)}, status=400)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Your e-mail address is confirmed. Welcome!"))
    return redirect("account")


def landing(request):
    """Where a login lands: a player on his own matches, a TD on his desk, anyone else on his account."""
    if not request.user.is_authenticated:
        return redirect("login")
    if PlayerAccount.objects.filter(user=request.user).exists():
        return redirect("my-matches")
    if runs_events(request.user):
        return redirect("desk")
    return redirect("account")


@login_required(login_url="login")
def account(request):
    """The login's page: its player (or a claim on one), and the password."""
    user = request.user
    mine = PlayerAccount.objects.filter(user=user).select_related("player").first()
    if request.method == "POST" and request.POST.get("action") == "claim":
        player = get_object_or_404(Player, pk=posted_number(request.POST, "player"))
        try:
            registration.claim_request(user=user, player=player, note=request.POST.get("note", ""))
        except (ValidationError, PermissionDenied) as error:
            messages.error(request, error_text(error))
        else:
            messages.success(request, _("Your claim on %(player)s is sent: a TD will confirm it.") % {"player": player.name})
        return redirect("account")
    if request.method == "POST" and request.POST.get("action") == "public_name":
        try:
            shown = registration.account_public_name_set(user=user, by=user, name=request.POST.get("public_name", ""))
        except ValidationError as error:
            messages.error(request, error_text(error))
        else:
            messages.success(request, _("You are shown as %(name)s in public.") % {"name": shown})
        return redirect("account")
    if request.method == "POST" and request.POST.get("action") == "match_emails" and mine:
        registration.account_match_emails_set(account=mine, by=user, on=request.POST.get("match_emails") == "on")
        messages.success(request, _("You will get an e-mail for each new match.") if request.POST.get("match_emails") == "on"
                         else _("You will get no more e-mails about new matches."))
        return redirect("account")
    claims = list(PlayerClaim.objects.filter(user=user).select_related("player").order_by("-created_at")[:5])
    pending = next((c for c in claims if c.status == ClaimStatus.PENDING), None)
    q = request.GET.get("q", "").strip()
    found = []
    if q and "\x00" not in q and not mine and not pending:  # no name holds a NUL (nor can the database read one)
        found = list(Player.objects.filter(name__icontains=q).select_related("account")
                     .only("id", "name", "country", "club", "account__user_id").order_by("name")[:PLAYERS_FOUND])
    return render(request, "registration/account.html", {
        "nav": "account", "mine": mine, "claims": claims, "pending": pending, "q": q, "found": found,
        "decide": registration.claims_to_decide(user).exists(),
        "public_name": PublicName.objects.filter(user=user).values_list("name", flat=True).first() or "",
        "shown_as": public_name(user),
    })


@login_required(login_url="login")
def claims(request):
    """The claims a TD (or staff) may decide: approve, or refuse saying why."""
    if request.method == "POST":
        claim = get_object_or_404(PlayerClaim, pk=posted_number(request.POST, "claim"))
        try:
            if request.POST.get("action") == "approve":
                registration.claim_approve(claim=claim, by=request.user)
                messages.success(request, _("%(login)s is now %(player)s.") % {"login": claim.user.get_username(),
                                                                                 "player": claim.player.name})
            else:
                registration.claim_refuse(claim=claim, by=request.user, reason=request.POST.get("reason", ""))
                messages.success(request, _("The claim on %(player)s is refused.") % {"player": claim.player.name})
        except (ValidationError, PermissionDenied) as error:
            messages.error(request, error_text(error))
        back = request.POST.get("next", "")
        # Back to the page the TD decided from (his desk): a path on this site, never a view's name.
        if back.startswith("/") and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
            return HttpResponseRedirect(back)
        return redirect("claims")
    waiting = list(registration.claims_to_decide(request.user))
    if not waiting and not runs_events(request.user):
        raise PermissionDenied(_("Only site admins and TDs decide claims."))
    return render(request, "registration/claims.html", {"nav": "account", "claims": waiting})


def check_in_window(request, slug: str):
    """A TD opens (or closes) the players' own check-in of a flight not yet drawn (POST)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    back = redirect(f"{reverse('event', args=[slug])}#check-in")
    if request.method != "POST":
        return back
    flight = get_object_or_404(Flight, tournament=tournament, pk=posted_number(request.POST, "flight"))
    try:
        if request.POST.get("action") == "close":
            registration.check_in_window_close(flight=flight, by=request.user)
            messages.success(request, _("Check-in from the phone for %(flight)s is closed.") % {"flight": flight.name})
        else:
            form = CheckInWindowForm(request.POST)
            if not form.is_valid():
                raise ValidationError({name: [e["message"] for e in errors]
                                       for name, errors in form.errors.get_json_data().items()})
            flight = registration.check_in_window_open(flight=flight, by=request.user,
                                                       minutes=form.cleaned_data["minutes"])
            messages.success(request, _("Players of %(flight)s can check in from their phones until %(time)s.") % {
                "flight": flight.name, "time": f"{timezone.localtime(flight.check_in_closes):%H:%M}"})
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, error_text(error))
    return back


def event_registration(request, slug: str):
    """A player registers for a flight online or takes it back; a TD opens the registration (POST)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    back = redirect(f"{reverse('event', args=[slug])}#registration")
    if request.method != "POST":
        return back
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('event', args=[slug])}")
    flight = get_object_or_404(Flight, tournament=tournament, pk=posted_number(request.POST, "flight"))
    action = request.POST.get("action")
    try:
        if action == "open":
            form = RegistrationOpenForm(request.POST)
            if not form.is_valid():
                raise ValidationError({name: [e["message"] for e in errors]
                                       for name, errors in form.errors.get_json_data().items()})
            registration.registration_open(flight=flight, by=request.user, closes=form.cleaned_data["closes"],
                                           cap=form.cleaned_data["cap"])
            messages.success(request, _("Online registration for %(flight)s is open.") % {"flight": flight.name})
        elif action == "cancel":
            registration.registration_cancel(flight=flight, by=request.user)
            messages.success(request, _("Your registration for %(flight)s is taken back.") % {"flight": flight.name})
        else:
            made = registration.registration_enter(flight=flight, by=request.user)
            if isinstance(made, WaitingEntry):
                messages.success(request, _("%(flight)s is full: you are on the waiting list.") % {"flight": flight.name})
            else:
                messages.success(request, _("You are registered for %(flight)s. Check in when the TD opens "
                                            "check-in.") % {"flight": flight.name})
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, error_text(error))
    return back


# -- password reset -------------------------------------------------------------------------------


class ResetForm(PasswordResetForm):
    """Django's form, which also reaches a login still waiting for its confirmation: a reset
    link proves the address as the confirmation link does."""

    def get_users(self, email):
        User = get_user_model()
        field = User.get_email_field_name()
        for user in User._default_manager.filter(Q(is_active=True) | Q(is_active=False, last_login__isnull=True),
                                                 **{f"{field}__iexact": email}):
            if user.has_usable_password():
                yield user

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        """Made here, sent by the worker (tried again while the mail server refuses), so that the
        page neither waits for the mail server nor fails with it. Its link is on SITE_URL, as
        every e-mail's (`config.links.site_url`), not on the host the request came in on."""
        address = urlsplit(site_url(""))
        context = {**context, "protocol": address.scheme, "domain": address.netloc + address.path,
                   "site_name": address.netloc}
        with in_language_of(context["user"]):
            subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
            body = loader.render_to_string(email_template_name, context)
            html = loader.render_to_string(html_email_template_name, context) if html_email_template_name else None
        registration.password_reset_enqueue(user_id=context["user"].pk, subject=subject, body=body, html=html)


class ResetSetPasswordForm(SetPasswordForm):
    def save(self, commit=True):
        user = super().save(commit=commit)
        if commit:
            registration.account_confirmed_by_reset(user=user)
        return user


class PasswordResetView(auth_views.PasswordResetView):
    """The reset page, with the e-mails it sends limited per address and per client: past the
    client's limit it says so (429); past an address's limit it answers as if it sent one, so it
    tells nobody whether the address has a login."""

    form_class = ResetForm

    def form_valid(self, form):
        refused = mail_allowed(self.request, purpose="password-reset", address=form.cleaned_data["email"])
        if refused == "client":
            form.add_error(None, MAIL_LIMIT_REFUSAL)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        if refused == "address":
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    form_class = ResetSetPasswordForm
