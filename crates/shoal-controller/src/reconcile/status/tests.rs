//! The status writer: each Mark sets its condition and Event.

use super::*;

fn function_with(conditions: Vec<Condition>) -> Function {
    let mut function = Function::new("hello", Default::default());
    function.status = Some(FunctionStatus {
        conditions,
        ..FunctionStatus::default()
    });
    function
}

fn event_reasons(writer: &StatusWriter, before: &[Condition]) -> Vec<String> {
    writer
        .events(before, &writer.snapshot())
        .into_iter()
        .map(|e| e.reason)
        .collect()
}

#[test]
fn a_condition_keeps_its_transition_time_while_its_status_holds() {
    let mut first = StatusWriter::new(&function_with(Vec::new()));
    first.mark_build_started("hello-build-1");
    let started = first.snapshot().conditions;
    let when = started[0].last_transition_time.clone();

    let mut second = StatusWriter::new(&function_with(started.clone()));
    second.mark_build_running("hello-build-1");
    let running = second.snapshot().conditions;
    assert_eq!(running[0].reason.as_deref(), Some(reason::JOB_RUNNING));
    assert_eq!(
        running[0].last_transition_time, when,
        "Unknown held: same transition time"
    );

    let mut third = StatusWriter::new(&function_with(running));
    third.mark_built("registry/fn@sha256:aa");
    let built = third.snapshot().conditions;
    assert_eq!(built[0].status, True);
    assert!(built[0].last_transition_time >= when);
}

#[test]
fn conditions_not_marked_keep_their_value_in_kymas_order() {
    let mut writer = StatusWriter::new(&function_with(Vec::new()));
    writer.mark_deployed("hello");
    writer.mark_source_stored("hello-source");
    writer.mark_build_failed("no");
    let types: Vec<String> = writer.snapshot().conditions.into_iter().map(|c| c.type_).collect();
    assert_eq!(types, [CONFIGURATION_READY, BUILD_READY, RUNNING]);

    let mut next = StatusWriter::new(&function_with(writer.snapshot().conditions));
    next.mark_build_started("job");
    let conditions = next.snapshot().conditions;
    assert_eq!(conditions.len(), 3);
    assert_eq!(conditions[2].reason.as_deref(), Some(reason::DEPLOYMENT_READY));
    // A second store of the source is an update, not a creation.
    next.mark_source_stored("hello-source");
    assert_eq!(
        next.snapshot().conditions[0].reason.as_deref(),
        Some(reason::CONFIG_MAP_UPDATED)
    );
}

#[test]
fn a_message_past_the_crds_limit_is_cut_on_a_character_boundary() {
    let mut writer = StatusWriter::new(&function_with(Vec::new()));
    writer.mark_build_failed("é".repeat(20_000));
    let message = writer.snapshot().conditions[0].message.clone().unwrap_or_default();
    assert!(message.len() <= MAX_MESSAGE);
    assert!(message.ends_with("…(truncated)"));
}

#[test]
fn an_event_is_recorded_when_its_mark_is_newly_reached_and_only_then() {
    let mut writer = StatusWriter::new(&function_with(Vec::new()));
    writer.mark_build_started("hello-build-1");
    writer.mark_waiting_for_build();
    assert_eq!(event_reasons(&writer, &[]), ["BuildStarted"]);
    let started = writer.snapshot().conditions;

    // Still building: nothing new to tell.
    let mut again = StatusWriter::new(&function_with(started.clone()));
    again.mark_build_started("hello-build-1");
    assert!(event_reasons(&again, &started).is_empty());

    let mut done = StatusWriter::new(&function_with(started.clone()));
    done.mark_built("registry/fn@sha256:aa");
    done.mark_load_failed("node-a", "registry/fn@sha256:aa", "no such digest");
    let events = done.events(&started, &done.snapshot());
    let reasons: Vec<&str> = events.iter().map(|e| e.reason.as_str()).collect();
    assert_eq!(reasons, ["BuildSucceeded", "LoadFailed"]);
    assert_eq!(events[1].type_, EventType::Warning);
    assert_eq!(
        events[1].note.as_deref(),
        Some("node node-a cannot load registry/fn@sha256:aa: no such digest")
    );
}

#[test]
fn marks_without_an_announcement_record_no_event() {
    let mut writer = StatusWriter::new(&function_with(Vec::new()));
    writer.mark_build_queued(5, 5);
    writer.mark_serving_previous("registry/fn@sha256:bb");
    writer.mark_spec_invalid("runtime nodejs12 is not supported");
    assert!(event_reasons(&writer, &[]).is_empty());
}

#[test]
fn a_failed_build_is_known_as_failed_on_the_next_pass() {
    let mut writer = StatusWriter::new(&function_with(Vec::new()));
    assert!(!writer.build_had_failed());
    writer.mark_build_failed("compile error");
    let next = StatusWriter::new(&function_with(writer.snapshot().conditions));
    assert!(next.build_had_failed());
}
