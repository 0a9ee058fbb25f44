"""The tutorial's endpoints: the lessons, and where a learner stands in one (docs/learn.md).

Stateless: the client sends the learner's actions so far, and the answer is the lesson
runner's (``dos.learn.run``), computed from the lesson's own position each time. Nothing is
stored; each request is a ``lookup`` (rate-limited like the other look-ups), and the work it
asks for is bounded by ``dos.learn.MAX_ACTIONS`` short lessons' actions.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from dos import learn
from dos.server.net.errors import ApiError
from dos.server.net.limits import Counters
from dos.server.net.limits import limited as limits_dependency

LessonId = Annotated[str, PathParam(min_length=1, max_length=40, pattern=r"^[a-z_]+$")]
"""A lesson's id in a path."""

ActionText = Annotated[str, Field(min_length=1, max_length=40)]
"""One action in notation (the longest, ``DOS=R+R#=10@12``, is far shorter)."""


class LearnRequest(BaseModel):
    """The learner's actions so far in a lesson, oldest first, in notation."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    actions: list[ActionText] = Field(default_factory=list, max_length=learn.MAX_ACTIONS)


def learn_router(counters: Counters) -> APIRouter:
    """``GET /api/learn`` (the lessons) and ``POST /api/learn/{lesson}`` (the runner's
    answer), each a ``lookup``."""
    router = APIRouter()
    lookup = [limits_dependency(counters, "lookup")]

    @router.get("/api/learn", dependencies=lookup)
    async def lessons() -> dict[str, Any]:
        """The lessons, in the order they are taught."""
        return {"lessons": [lesson.to_json() for lesson in learn.lessons()]}

    @router.post("/api/learn/{lesson_id}", dependencies=lookup)
    async def step(lesson_id: LessonId, request: LearnRequest) -> dict[str, Any]:
        """Where the learner stands after ``actions``: the view, the prompt, the lit cards,
        and the refusal of the last action if it was refused (docs/learn.md)."""
        try:
            lesson = learn.lesson(lesson_id)
        except KeyError:
            raise ApiError(
                404, "no_lesson", f"there is no lesson {lesson_id!r}", "lesson"
            ) from None
        try:
            return learn.run(lesson, request.actions).to_json()
        except learn.LessonInputError as error:
            raise ApiError(
                422, "bad_action", f"actions.{error.index}: {error}", f"actions.{error.index}"
            ) from None

    return router
