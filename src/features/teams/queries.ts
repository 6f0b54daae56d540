/** What other features read of teams: grants name teams, and a member's teams are listed and counted. */
export { addTeamMemberKeepingRole, countTeams, findTeam, findTeams, listTeams, teamRolesOfUser, type TeamFilter } from './store.ts';
