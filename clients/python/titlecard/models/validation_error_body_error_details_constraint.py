from enum import StrEnum


class ValidationErrorBodyErrorDetailsConstraint(StrEnum):
    ENUM = "enum"
    FORMAT = "format"
    MAX = "max"
    MAXLENGTH = "maxLength"
    MIN = "min"
    MINLENGTH = "minLength"
    REQUIRED = "required"
    TYPE = "type"

    def __str__(self) -> str:
        return str(self.value)
