! The Fortran bindings (omp_*_ symbols) through gfortran's omp_lib.
program test_fortran
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: l
  integer(omp_nest_lock_kind) :: nl
  integer(omp_sched_kind) :: kind
  integer :: chunk, n, ids(64), nums(64)
  integer(omp_allocator_handle_kind) :: a
  type(omp_alloctrait) :: traits(1)
  character(len=64) :: buf
  integer :: failures = 0

  call omp_set_num_threads(3)
  call check(omp_get_max_threads() == 3, 'omp_set_num_threads')
  call omp_set_dynamic(.true.)
  call check(omp_get_dynamic(), 'omp_set_dynamic')
  call omp_set_dynamic(.false.)
  call omp_set_schedule(omp_sched_guided, 5)
  call omp_get_schedule(kind, chunk)
  call check(kind == omp_sched_guided .and. chunk == 5, 'omp_get_schedule')
  call omp_set_schedule(ior(omp_sched_dynamic, ishft(1, 31)), 2)
  call omp_get_schedule(kind, chunk)
  call check(kind == omp_sched_dynamic .and. chunk == 2, 'monotonic is masked for Fortran')
  call omp_set_max_active_levels(4)
  call check(omp_get_max_active_levels() == 4, 'max active levels')
  call check(omp_get_supported_active_levels() == 255, 'supported levels')
  call check(omp_get_level() == 0 .and. .not. omp_in_parallel(), 'level 0')
  call check(omp_get_num_devices() == 1 .and. omp_is_initial_device(), 'one device')
  call check(omp_get_initial_device() == omp_get_device_num(), 'device num')
  call check(omp_get_wtime() > 0.0d0 .and. omp_get_wtick() > 0.0d0, 'wtime')
  call check(omp_get_num_procs() >= 1, 'num procs')

  n = 0
  !$omp parallel num_threads(2) reduction(+:n)
  n = n + 1
  if (omp_get_num_threads() /= 2 .or. omp_get_level() /= 1) n = n + 100
  !$omp end parallel
  call check(n == 2, 'parallel region')

  call omp_init_lock(l)
  call check(omp_test_lock(l), 'test_lock')
  call check(.not. omp_test_lock(l), 'test_lock again')
  call omp_unset_lock(l)
  call omp_set_lock(l)
  call omp_unset_lock(l)
  call omp_destroy_lock(l)

  call omp_init_nest_lock(nl)
  call check(omp_test_nest_lock(nl) == 1, 'test_nest_lock 1')
  call omp_set_nest_lock(nl)
  call check(omp_test_nest_lock(nl) == 3, 'test_nest_lock 3')
  call omp_unset_nest_lock(nl)
  call omp_unset_nest_lock(nl)
  call omp_unset_nest_lock(nl)
  n = 0
  !$omp parallel num_threads(4) shared(n)
  call omp_set_nest_lock(nl)
  call omp_set_nest_lock(nl)
  n = n + 1
  call omp_unset_nest_lock(nl)
  call omp_unset_nest_lock(nl)
  !$omp end parallel
  call check(n == 4, 'nest lock in parallel')
  call omp_destroy_nest_lock(nl)

  call omp_set_affinity_format('T%0.3n/%N')
  n = omp_get_affinity_format(buf)
  call check(n == 9 .and. buf == 'T%0.3n/%N', 'affinity format')
  n = omp_capture_affinity(buf, '')
  call check(n == 6 .and. buf == 'T000/1', 'capture affinity')
  n = omp_capture_affinity(buf, '%L:%{num_threads}')
  call check(n == 3 .and. buf == '0:1', 'capture affinity with format')

  traits(1)%key = omp_atk_alignment
  traits(1)%value = 64
  a = omp_init_allocator(omp_default_mem_space, 1, traits)
  call check(a /= omp_null_allocator, 'init allocator')
  call omp_set_default_allocator(a)
  call check(omp_get_default_allocator() == a, 'default allocator')
  call omp_set_default_allocator(omp_default_mem_alloc)
  call omp_destroy_allocator(a)

  call check(omp_get_num_places() == 0, 'no places')
  call check(omp_get_place_num() == -1, 'no place')
  call check(omp_get_partition_num_places() == 0, 'no partition')
  n = omp_get_place_num_procs(0)
  call check(n == 0, 'place procs')
  call omp_get_place_proc_ids(0, ids)
  call omp_get_partition_place_nums(nums)
  call check(omp_get_proc_bind() == omp_proc_bind_false, 'proc bind')
  call check(omp_pause_resource_all(omp_pause_soft) == 0, 'pause all')
  call check(omp_pause_resource(omp_pause_hard, omp_get_initial_device()) == 0, 'pause host')
  call check(omp_pause_resource(omp_pause_hard, 7) /= 0, 'pause bad device')
  call omp_set_num_teams(3)
  call check(omp_get_max_teams() == 3, 'num teams')
  call omp_set_teams_thread_limit(2)
  call check(omp_get_teams_thread_limit() == 2, 'teams thread limit')

  if (failures /= 0) stop 1
  print '(a)', 'fortran: all checks passed'
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(2a)', 'FAIL: ', what
      failures = failures + 1
    end if
  end subroutine
end program
